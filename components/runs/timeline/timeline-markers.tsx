import { formatDuration } from "@/lib/charts/timeline-labels";
import type { MarkerKind, TimelineMarker } from "@/lib/charts/timeline-markers";
import { offscreenMarks, type TimeView } from "@/lib/charts/timeline-viewport";
import styles from "../runs.module.css";

const MARKER_CLASS: Record<MarkerKind, string | undefined> = { deadline: styles.deadline, end: styles.runEnd, start: styles.runStart };
// Edge notes stack from the top in this order, so two marks beyond one edge never overlap.
const EDGE_ROW: Record<MarkerKind, number> = { deadline: 0, end: 1, start: 2 };

/**
 * The run's deadline, end and start as lines over every lane; only the deadline is labelled on its
 * line. A mark beyond the view is said at that edge, with how far beyond it lies, so fitting the
 * view to the attempts never hides that a deadline or the run's end exists.
 */
export function TimelineMarkers({ markers, view, pct, scrollbar }: { markers: TimelineMarker[]; view: TimeView; pct: (ms: number) => number; scrollbar: number }) {
  const offscreen = offscreenMarks(markers, view);
  return (
    <div className={styles.overlay} style={{ right: scrollbar }}>
      {markers.map((l) =>
        l.at >= view.start && l.at <= view.end ? (
          <div key={l.key} className={`${styles.vline} ${MARKER_CLASS[l.key]}`} style={{ left: `${pct(l.at)}%` }} data-testid={`line-${l.key}`} aria-hidden="true">
            {l.key === "deadline" ? <span className={`${styles.vlineLabel} ${styles.deadlineLabel}`}>{l.label}</span> : null}
          </div>
        ) : null,
      )}
      {offscreen.map((o) => {
        const mark = markers.find((m) => m.key === o.key)!;
        const text = `${mark.label} · off-screen, ${formatDuration(o.distanceMs)} ${o.side === "right" ? "after" : "before"} the view`;
        return (
          <span
            key={`edge-${o.key}`}
            className={`${styles.edgeMark} ${o.key === "deadline" ? styles.deadlineLabel : ""}`}
            data-side={o.side}
            data-testid={`offscreen-${o.key}`}
            style={{ top: 2 + EDGE_ROW[o.key] * 18 }}
            role="note"
          >
            {o.side === "left" ? "← " : ""}
            {text}
            {o.side === "right" ? " →" : ""}
          </span>
        );
      })}
    </div>
  );
}
