import type { EmitterFieldGap } from "@/lib/contracts/conformance";
import styles from "./conformance.module.css";

/**
 * One field of one emitter, each span counted once: sent by the emitter, derived by Faultline (how
 * is in the title and listed under the table), missing (stored as unknown). A dash when no span could
 * carry it (code, class and message count only spans that did not succeed).
 */
export function FieldCell({ field }: { field: EmitterFieldGap }) {
  const { gap, derived } = field;
  if (gap.of === 0) {
    return (
      <>
        —<span className={styles.count}>0 spans</span>
      </>
    );
  }
  const sent = gap.of - derived - gap.missing;
  return (
    <>
      {sent > 0 ? <span className={`${styles.part} ${styles.good}`}>sent {sent}</span> : null}
      {derived > 0 ? (
        <span className={styles.part} title={field.derivation ?? undefined}>
          derived {derived}
        </span>
      ) : null}
      {gap.missing > 0 ? <span className={`${styles.part} ${styles.bad}`}>missing {gap.missing}</span> : null}
      <span className={styles.count}>of {gap.of}</span>
    </>
  );
}

/** The cell around a {@link FieldCell}: greyed out, with the reason, when nothing could be measured. */
export const fieldCellProps = (field: EmitterFieldGap) =>
  field.gap.of === 0 ? { className: styles.none, title: "nothing to measure: no spans of this kind" } : { className: undefined, title: undefined };
