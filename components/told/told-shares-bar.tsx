import type { ToldShares } from "@/lib/charts/told-shares";
import styles from "./told.module.css";

const pct = (share: number) => `${Math.round(share * 100)}%`;

/**
 * The next steps as one stacked bar with a legend. Every step is in the legend, an explicit zero
 * included; with no surfaced error there is no bar at all, and the gap says so rather than drawing
 * an empty (all-zero) bar. `small` draws the bar alone, for table rows.
 */
export function ToldSharesBar({ shares, small = false, testId }: { shares: ToldShares; small?: boolean; testId?: string }) {
  if (shares.total === 0) {
    return (
      <div className={styles.gap} data-testid={testId} data-gap="true">
        no data: no error was surfaced to the model
      </div>
    );
  }
  return (
    <>
      <div className={small ? `${styles.bar} ${styles.small}` : styles.bar} role="img" aria-label={shares.description} data-testid={testId}>
        {shares.segments.map((s) => (
          <div key={s.step} className={styles.segment} data-step={s.step} data-errors={s.errors} style={{ width: `${s.share * 100}%` }} title={`${s.label}: ${s.errors} (${pct(s.share)})`} />
        ))}
      </div>
      {small ? null : (
        <ul className={styles.legend} aria-label="Next steps">
          {shares.legend.map((l) => (
            <li key={l.step} data-step={l.step} data-zero={l.errors === 0} data-errors={l.errors}>
              <span className={`${styles.swatch} ${styles.segment}`} data-step={l.step} aria-hidden="true" />
              {l.label} <strong>{l.errors}</strong>
              {l.errors > 0 ? ` (${pct(l.share)})` : ""}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
