import { formatOffset } from "@/lib/charts/timeline-labels";
import styles from "../runs.module.css";

/** The time axis above the lanes, ticks placed in percent of the visible window. */
export function TimelineAxis({ rowCount, ticks, pct, scrollbar }: { rowCount: number; ticks: number[]; pct: (ms: number) => number; scrollbar: number }) {
  return (
    <div className={styles.axis} aria-hidden="true" style={{ paddingRight: scrollbar }}>
      <div className={styles.label}>
        <span className={styles.muted}>{rowCount} rows · time from run start</span>
      </div>
      <div className={styles.axisTrack}>
        {ticks.map((t) => (
          <span key={t} className={styles.tick} style={{ left: `${pct(t)}%` }}>
            {formatOffset(t)}
          </span>
        ))}
      </div>
    </div>
  );
}
