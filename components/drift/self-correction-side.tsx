import Link from "next/link";
import type { SelfCorrectionSide as Side } from "@/lib/contracts/drift";
import { formatCount, formatPct } from "@/lib/charts/format";
import styles from "./drift.module.css";

const runHref = (id: string, project: string | undefined) => `/runs/${encodeURIComponent(id)}${project && project !== "default" ? `?project=${encodeURIComponent(project)}` : ""}`;

/** One side of a model behaviour finding: how often the model recovered after the code in that release, and example runs. */
export function SelfCorrectionSide({ title, side, exampleRunIds, examplesAre, project }: { title: string; side: Side; exampleRunIds: string[]; examplesAre: string; project: string | undefined }) {
  return (
    <section className={styles.side} aria-label={title} data-testid="self-correction-side">
      <h3>{title}</h3>
      <dl>
        <dt>recovered after told</dt>
        <dd data-testid="self-correction-rate">
          {formatPct(side.rate, 0)} ({formatCount(side.recovered)} of {formatCount(side.decided)} decided errors)
        </dd>
      </dl>
      <div className={styles.links}>
        {exampleRunIds.length > 0 ? <span className={styles.muted}>{examplesAre}:</span> : null}
        {exampleRunIds.map((id) => (
          <Link key={id} href={runHref(id, project)} className={styles.mono}>
            {id}
          </Link>
        ))}
      </div>
    </section>
  );
}
