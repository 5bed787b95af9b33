import type { Gap } from "@/lib/contracts/conformance";
import styles from "./conformance.module.css";

/** One missing-field share: "25% · 3 of 12", or a dash when there was nothing that could miss it. */
export function GapCell({ gap }: { gap: Gap }) {
  if (gap.share === null) {
    return (
      <>
        —<span className={styles.count}>0 spans</span>
      </>
    );
  }
  const pct = Math.round(gap.share * 1000) / 10;
  return (
    <>
      <span className={`${styles.share} ${gap.missing === 0 ? styles.good : styles.bad}`}>{pct}%</span>
      <span className={styles.count}>
        {gap.missing} of {gap.of}
      </span>
    </>
  );
}

/** The cell around a {@link GapCell}: greyed out, with the reason, when nothing could be measured. */
export const gapCellProps = (gap: Gap) =>
  gap.share === null ? { className: styles.none, title: "nothing to measure: no spans of this kind" } : { className: undefined, title: undefined };
