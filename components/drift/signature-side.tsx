import Link from "next/link";
import type { DriftSignature, Mix } from "@/lib/contracts/drift";
import { formatDelay } from "@/lib/drift/delays";
import styles from "./drift.module.css";

const mixText = (mix: Mix) =>
  mix.entries.length === 0 ? "unknown" : mix.entries.map((e) => `${e.value} ${Math.round(e.share * 100)}%`).join(", ") + (mix.basis === "errors" ? " (final errors)" : "");

const runsHref = (code: string, release: string) => `/runs?${new URLSearchParams({ code, release }).toString()}`;

/** One side (before or after) of a finding: the signature, or the tool's calls when the code is absent. */
export function SignatureSide(props: { title: string; signature: DriftSignature | null; absent: string; tool: string; release: string; exampleRunIds: string[] }) {
  const { title, signature, absent, tool, release, exampleRunIds } = props;
  return (
    <section className={styles.side} aria-label={title}>
      <h3>{title}</h3>
      {signature ? (
        <dl>
          <dt>calls</dt>
          <dd>
            {signature.calls} ({signature.spans} attempts, {signature.errors} final errors)
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
              : `median ${formatDelay(signature.retryAfter.medianMs)}, p90 ${formatDelay(signature.retryAfter.p90Ms ?? signature.retryAfter.medianMs)} (${signature.retryAfter.samples} samples)`}
          </dd>
          <dt>recovered</dt>
          <dd>{signature.recovery.rate === null ? "unknown" : `${Math.round(signature.recovery.rate * 100)}% (${signature.recovery.recovered} of ${signature.recovery.calls} calls)`}</dd>
          <dt>told</dt>
          <dd className={styles.mono}>{signature.toldShapes[0]?.shape ?? "not recorded"}</dd>
        </dl>
      ) : (
        <p className={styles.muted}>{absent}</p>
      )}
      <div className={styles.links}>
        {exampleRunIds.length > 0 ? <span className={styles.muted}>{signature ? "example runs:" : `example runs of ${tool} in ${release}:`}</span> : null}
        {exampleRunIds.map((id) => (
          <Link key={id} href={`/runs/${encodeURIComponent(id)}`} className={styles.mono}>
            {id}
          </Link>
        ))}
        {signature ? <Link href={runsHref(signature.code, signature.release)}>all runs with this code in {signature.release}</Link> : null}
      </div>
    </section>
  );
}
