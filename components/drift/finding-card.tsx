import type { DriftFinding } from "@/lib/contracts/drift";
import { CodeText } from "./code-text";
import { BUMP_LABEL, KIND_LABEL, VERDICT_LABEL } from "./labels";
import { SignatureSide } from "./signature-side";
import styles from "./drift.module.css";

export function FindingCard({ finding: f }: { finding: DriftFinding }) {
  return (
    <li className={styles.card} data-severity={f.severity} data-testid="drift-finding" data-kind={f.kind}>
      <div className={styles.meta}>
        <span className={styles.pill} data-severity={f.severity}>
          {f.severity}
        </span>
        <span className={styles.pill}>{KIND_LABEL[f.kind]}</span>
        <span className={styles.pill} data-verdict={f.verdict}>
          {VERDICT_LABEL[f.verdict]}
        </span>
        <span className={styles.muted}>
          <span className={styles.mono}>{f.tool}</span> · {f.fromRelease} → {f.toRelease} · {BUMP_LABEL[f.bump]}
        </span>
      </div>
      <p className={styles.sentence}>
        <CodeText text={f.sentence} />
      </p>
      <div className={styles.sides}>
        <SignatureSide
          title={`Before: ${f.code} in ${f.fromRelease}`}
          signature={f.before}
          absent={`${f.code} was not emitted by ${f.tool} in ${f.fromRelease}.`}
          tool={f.tool}
          release={f.fromRelease}
          exampleRunIds={f.exampleRuns.before}
        />
        <SignatureSide
          title={`After: ${f.renamedTo ?? f.code} in ${f.toRelease}`}
          signature={f.after}
          absent={`${f.code} was not emitted by ${f.tool} in ${f.toRelease}.`}
          tool={f.tool}
          release={f.toRelease}
          exampleRunIds={f.exampleRuns.after}
        />
      </div>
    </li>
  );
}
