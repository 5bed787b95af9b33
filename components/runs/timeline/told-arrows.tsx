import { arrowsInRows, type ToldArrow } from "@/lib/charts/told-arrows";
import styles from "../runs.module.css";

/**
 * Arrows from each error surfaced to the model to the call that decided what came of it: solid in
 * the ok colour to the recovering call, dashed to a call that repeated or failed again. Drawn over
 * the lanes (percent of the visible time window across, lane centres down) for the rows in view;
 * each arrow carries its description for assistive technology.
 */
export function ToldArrows({ arrows, pct, height, first, end }: { arrows: readonly ToldArrow[]; pct: (ms: number) => number; height: number; first: number; end: number }) {
  const shown = arrowsInRows(arrows, first, end);
  if (shown.length === 0) return null;
  return (
    <svg className={styles.toldArrows} width="100%" height={height} data-testid="told-arrows">
      <defs>
        <marker id="told-head-ok" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className={styles.toldHeadOk} />
        </marker>
        <marker id="told-head-other" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className={styles.toldHeadOther} />
        </marker>
      </defs>
      {shown.map((a) => (
        <g key={a.key} role="img" aria-label={a.description} data-testid="told-arrow" data-step={a.step} data-from-call={a.fromCallId} data-to-call={a.toCallId ?? ""}>
          <title>{a.description}</title>
          <line
            x1={`${pct(a.fromMs!)}%`}
            y1={a.fromY!}
            x2={`${pct(a.toMs!)}%`}
            y2={a.toY!}
            className={a.recovery ? styles.toldLineOk : styles.toldLineOther}
            markerEnd={`url(#${a.recovery ? "told-head-ok" : "told-head-other"})`}
          />
        </g>
      ))}
    </svg>
  );
}

/** The same arrows as a list under the chart, every surfaced error included (those without an arrow too). */
export function ToldStepsList({ arrows }: { arrows: readonly ToldArrow[] }) {
  if (arrows.length === 0) return null;
  return (
    <section className={styles.toldList} aria-label="After the model was told" data-testid="told-steps">
      <h2>After the model was told</h2>
      <ol>
        {arrows.map((a) => (
          <li key={a.key} data-step={a.step} data-from-call={a.fromCallId}>
            <span className={styles.toldMark} data-recovery={a.recovery} aria-hidden="true" />
            {a.description}
          </li>
        ))}
      </ol>
    </section>
  );
}
