import Link from "next/link";
import type { DriftSignature, Mix } from "@/lib/contracts/drift";
import { formatCount, formatCountOf, formatPct } from "@/lib/charts/format";
import { formatDelay } from "@/lib/drift/delays";
import styles from "./drift.module.css";

const mixText = (mix: Mix) =>
  mix.entries.length === 0 ? "unknown" : mix.entries.map((e) => `${e.value} ${Math.round(e.share * 100)}%`).join(", ") + (mix.basis === "errors" ? " (final errors)" : "");

const runsHref = (code: string, release: string, project: string | undefined) =>
  `/runs?${new URLSearchParams({ ...(project && project !== "default" ? { project } : {}), code, release }).toString()}`;
const runHref = (id: string, project: string | undefined) => `/runs/${encodeURIComponent(id)}${project && project !== "default" ? `?project=${encodeURIComponent(project)}` : ""}`;

/** One side (before or after) of a finding: the signature, or the tool's calls when the code is absent. */
export function SignatureSide(props: { title: string; signature: DriftSignature | null; absent: string; tool: string; release: string; exampleRunIds: string[]; project?: string }) {
  const { title, signature, absent, tool, release, exampleRunIds, project } = props;
  return (
    <section className={styles.side} aria-label={title}>
      <h3>{title}</h3>
      {signature ? (
        <dl>
          <dt>calls</dt>
          <dd>
            {formatCount(signature.calls)} ({formatCountOf(signature.spans, "attempt")}, {formatCountOf(signature.errors, "final error")})
          </dd>
          <dt>class</dt>
          <dd>{mixText(signature.errorClass)}</dd>
          <dt>retryable</dt>
          <dd>{mixText(signature.retryable)}</dd>
          <dt>outcome</dt>
          <dd>{mixText(signature.outcome)}</dd>
          <dt>decision</dt>
          <dd>{mixText(signature.decision)}</dd>
          <dt>retry_after</dt>
          <dd>
            {signature.retryAfter.medianMs === null
              ? "none asked"
              : `median ${formatDelay(signature.retryAfter.medianMs)}${signature.retryAfter.p90Ms === null ? "" : `, p90 ${formatDelay(signature.retryAfter.p90Ms)}`} (${formatCountOf(signature.retryAfter.samples, "sample")})`}
          </dd>
          <dt>recovered</dt>
          <dd>{signature.recovery.rate === null ? "unknown" : `${formatPct(signature.recovery.rate, 0)} (${formatCount(signature.recovery.recovered)} of ${formatCountOf(signature.recovery.calls, "call")})`}</dd>
          <dt>told</dt>
          <dd className={styles.mono}>{signature.toldShapes[0]?.shape ?? "not recorded"}</dd>
        </dl>
      ) : (
        <p className={styles.muted}>{absent}</p>
      )}
      <div className={styles.links}>
        {exampleRunIds.length > 0 ? <span className={styles.muted}>{signature ? "example runs:" : `example runs of ${tool} in ${release}:`}</span> : null}
        {exampleRunIds.map((id) => (
          <Link key={id} href={runHref(id, project)} className={styles.mono}>
            {id}
          </Link>
        ))}
        {signature ? <Link href={runsHref(signature.code, signature.release, project)}>all runs with this code in {signature.release}</Link> : null}
      </div>
    </section>
  );
}
