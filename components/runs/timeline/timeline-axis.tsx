import type { ReactNode } from "react";
import { formatOffset } from "@/lib/charts/timeline-labels";
import styles from "../runs.module.css";

/** The time axis above the lanes, ticks placed in percent of the visible window. */
export function TimelineAxis({ rowCount, ticks, pct, scrollbar, children }: { rowCount: number; ticks: number[]; pct: (ms: number) => number; scrollbar: number; children?: ReactNode }) {
  return (
    <div className={styles.axis} style={{ paddingRight: scrollbar }}>
      <div className={styles.label}>
        <span className={styles.muted} aria-hidden="true">{rowCount} rows · time from run start</span>
      </div>
      <div className={styles.axisTrack}>
        {children}
        {ticks.map((t) => (
          <span key={t} className={styles.tick} style={{ left: `${pct(t)}%` }} aria-hidden="true">
            {formatOffset(t)}
          </span>
        ))}
      </div>
    </div>
  );
}
