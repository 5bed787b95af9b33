import { formatDuration } from "@/lib/charts/timeline-labels";
import type { MarkerKind, TimelineMarker } from "@/lib/charts/timeline-markers";
import { offscreenMarks, type TimeView } from "@/lib/charts/timeline-viewport";

export { offscreenMarks };
import styles from "../runs.module.css";

const MARKER_CLASS: Record<MarkerKind, string | undefined> = { deadline: styles.deadline, end: styles.runEnd, start: styles.runStart };
// Edge notes stack from the top in this order, so two marks beyond one edge never overlap.
const EDGE_ORDER: MarkerKind[] = ["deadline", "end", "start"];

/**
 * The run's deadline, end and start as lines over every lane; only the deadline is labelled on its
 * line. A mark beyond the view is said at that edge, with how far beyond it lies, so fitting the
 * view to the attempts never hides that a deadline or the run's end exists.
 */
export function TimelineMarkers({ markers, view, pct, scrollbar }: { markers: TimelineMarker[]; view: TimeView; pct: (ms: number) => number; scrollbar: number }) {
  return (
    <div className={styles.overlay} style={{ right: scrollbar }}>
      {markers.map((l) =>
        l.at >= view.start && l.at <= view.end ? (
          <div key={l.key} className={`${styles.vline} ${MARKER_CLASS[l.key]}`} style={{ left: `${pct(l.at)}%` }} data-testid={`line-${l.key}`} aria-hidden="true">
            {l.key === "deadline" ? <span className={`${styles.vlineLabel} ${styles.deadlineLabel}`}>{l.label}</span> : null}
          </div>
        ) : null,
      )}
    </div>
  );
}

/** Marks beyond the view, said in the axis row at the edge they lie beyond, with how far. */
export function OffscreenMarks({ markers, view }: { markers: TimelineMarker[]; view: TimeView }) {
  const offscreen = offscreenMarks(markers, view);
  return (["left", "right"] as const).map((side) => {
    const here = offscreen.filter((o) => o.side === side).sort((a, b) => EDGE_ORDER.indexOf(a.key) - EDGE_ORDER.indexOf(b.key));
    if (here.length === 0) return null;
    return (
      <span key={side} className={styles.edgeMarks} data-side={side}>
        {here.map((o) => {
          const mark = markers.find((m) => m.key === o.key)!;
          return (
            <span key={o.key} className={`${styles.edgeMark} ${o.key === "deadline" ? styles.deadlineLabel : ""}`} data-testid={`offscreen-${o.key}`} role="note">
              {side === "left" ? "← " : ""}
              {`${mark.label} · off-screen, ${formatDuration(o.distanceMs)} ${side === "right" ? "after" : "before"} the view`}
              {side === "right" ? " →" : ""}
            </span>
          );
        })}
      </span>
    );
  });
}
