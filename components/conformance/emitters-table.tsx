import { DataTable, type Column } from "@/components/data-table";
import type { ConformanceEmitter as Emitter, EmitterField, EmitterFieldGap } from "@/lib/contracts/conformance";
import styles from "./conformance.module.css";
import { GapCell, gapCellProps } from "./gap-cell";
import { CONVENTION_LABELS } from "./source-labels";

const FIELD_HEADERS: Record<EmitterField, string> = {
  callId: "No call id",
  runId: "No run id",
  attempt: "No attempt",
  outcome: "No outcome",
  code: "No code (non-ok)",
  errorClass: "No class (non-ok)",
  message: "No message (non-ok)",
  release: "No release",
};

const fieldOf = (e: Emitter, field: EmitterField): EmitterFieldGap | undefined => e.fields.find((f) => f.field === field);

// The fix is shown only where something is missing: a clean column stays quiet.
const fieldColumn = (field: EmitterField): Column<Emitter> => ({
  id: field,
  header: FIELD_HEADERS[field],
  cell: (e) => {
    const f = fieldOf(e, field);
    if (!f) return "—";
    return (
      <>
        <GapCell gap={f.gap} />
        {f.gap.missing > 0 && f.fix ? <span className={`${styles.count} ${styles.mono}`}>add {f.fix}</span> : null}
      </>
    );
  },
  cellClassName: (e) => {
    const f = fieldOf(e, field);
    return f ? gapCellProps(f.gap).className : undefined;
  },
  cellTitle: (e) => {
    const f = fieldOf(e, field);
    return f ? gapCellProps(f.gap).title : undefined;
  },
});

const columns: Column<Emitter>[] = [
  {
    id: "emitter",
    header: "Emitter",
    rowHeader: true,
    cell: (e) => (
      <>
        {e.service ?? "unknown service"}
        <span className={`${styles.count} ${styles.mono}`}>{CONVENTION_LABELS[e.convention] ?? e.convention}</span>
      </>
    ),
  },
  { id: "spans", header: "Tool spans", cellClassName: styles.num, cell: (e) => e.spans },
  ...(["callId", "runId", "attempt", "outcome", "code", "errorClass", "message", "release"] as const).map(fieldColumn),
  {
    id: "drops",
    header: "Dropped",
    cell: (e) =>
      e.drops.length === 0 ? (
        <span className={styles.good}>none</span>
      ) : (
        <ul className={styles.drops}>
          {e.drops.map((d) => (
            <li key={`${d.reason}/${d.attribute ?? ""}`}>
              <span className={styles.bad}>
                {d.spans} {d.reason}
              </span>
              <span className={`${styles.count} ${styles.mono}`}>{d.fix}</span>
            </li>
          ))}
        </ul>
      ),
  },
];

/** Per emitter (service + convention): what its tool spans lack, what was dropped, and the attribute that fixes it. */
export function EmittersTable({ emitters }: { emitters: Emitter[] }) {
  return <DataTable columns={columns} rows={emitters} rowKey={(e) => `${e.service ?? ""}/${e.convention}`} className={styles.table} align={{}} />;
}
