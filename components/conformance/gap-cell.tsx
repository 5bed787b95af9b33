import type { Gap } from "@/lib/contracts/conformance";
import styles from "./conformance.module.css";

/** One missing-field share: "25% · 3 of 12", or a dash when there was nothing that could miss it. */
export function GapCell({ gap }: { gap: Gap }) {
  if (gap.share === null) {
    return (
      <td className={styles.none} title="nothing to measure: no spans of this kind">
        —<span className={styles.count}>0 spans</span>
      </td>
    );
  }
  const pct = Math.round(gap.share * 1000) / 10;
  return (
    <td>
      <span className={`${styles.share} ${gap.missing === 0 ? styles.good : styles.bad}`}>{pct}%</span>
      <span className={styles.count}>
        {gap.missing} of {gap.of}
      </span>
    </td>
  );
}
