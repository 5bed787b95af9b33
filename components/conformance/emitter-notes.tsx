import type { ConformanceEmitter as Emitter, EmitterField } from "@/lib/contracts/conformance";
import styles from "./conformance.module.css";
import { CONVENTION_LABELS } from "./source-labels";

/** Field names as the notes say them. */
export const FIELD_LABELS: Record<EmitterField, string> = {
  callId: "call id",
  runId: "run id",
  attempt: "attempt",
  outcome: "outcome",
  code: "code",
  errorClass: "error class",
  message: "message",
  release: "release",
};

/**
 * Per emitter, in words: how Faultline derived what it did not send, and what to send (with where in
 * that emitter's SDK) only for fields its spans miss, where sending them would change what is stored.
 */
export function EmitterNotes({ emitters }: { emitters: Emitter[] }) {
  const withFields = emitters.filter((e) => e.spans > 0);
  if (withFields.length === 0) return null;
  return (
    <ul className={styles.notes} aria-label="Per emitter: derived fields and what to send">
      {withFields.map((e) => {
        const derived = e.fields.filter((f) => f.derived > 0 && f.derivation);
        const fixes = e.fields.filter((f) => f.fix !== null);
        // Missing, and the input has no field that could carry it: nothing to advise.
        const noPlace = e.fields.filter((f) => f.gap.missing > 0 && f.fix === null);
        return (
          <li key={`${e.service ?? ""}/${e.convention}`}>
            <strong>{e.service ?? "unknown service"}</strong> <span className={styles.mono}>{CONVENTION_LABELS[e.convention] ?? e.convention}</span>
            {derived.map((f) => (
              <span key={f.field} className={styles.count}>
                {FIELD_LABELS[f.field]} derived: {f.derivation}
              </span>
            ))}
            {fixes.length === 0 && noPlace.length === 0 ? (
              <span className={`${styles.count} ${styles.good}`}>Nothing to add: every field is sent or derived.</span>
            ) : null}
            {fixes.map((f) => (
              <span key={f.field} className={styles.count}>
                {FIELD_LABELS[f.field]} missing on {f.gap.missing} of {f.gap.of}: add <span className={styles.mono}>{f.fix!.attribute}</span> — {f.fix!.where}
              </span>
            ))}
            {noPlace.length > 0 ? (
              <span className={styles.count}>{noPlace.map((f) => FIELD_LABELS[f.field]).join(", ")} unknown: this input has no field for them.</span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
