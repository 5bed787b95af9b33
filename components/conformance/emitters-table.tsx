import { DataTable, type Column } from "@/components/data-table";
import type { ConformanceEmitter as Emitter, EmitterField, EmitterFieldGap } from "@/lib/contracts/conformance";
import styles from "./conformance.module.css";
import { FieldCell, fieldCellProps } from "./field-cell";
import { CONVENTION_LABELS } from "./source-labels";

const FIELD_HEADERS: Record<EmitterField, string> = {
  callId: "Call id",
  runId: "Run id",
  attempt: "Attempt",
  outcome: "Outcome",
  code: "Code (non-ok)",
  errorClass: "Class (non-ok)",
  message: "Message (non-ok)",
  release: "Release",
};

const fieldOf = (e: Emitter, field: EmitterField): EmitterFieldGap | undefined => e.fields.find((f) => f.field === field);

const fieldColumn = (field: EmitterField): Column<Emitter> => ({
  id: field,
  header: FIELD_HEADERS[field],
  cell: (e) => {
    const f = fieldOf(e, field);
    return f ? <FieldCell field={f} /> : "—";
  },
  cellClassName: (e) => {
    const f = fieldOf(e, field);
    return f ? fieldCellProps(f).className : undefined;
  },
  cellTitle: (e) => {
    const f = fieldOf(e, field);
    return f ? fieldCellProps(f).title : undefined;
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

/** Per emitter (service + convention): per field, how many spans sent it, had it derived, or miss it; and what was dropped. */
export function EmittersTable({ emitters }: { emitters: Emitter[] }) {
  return <DataTable columns={columns} rows={emitters} rowKey={(e) => `${e.service ?? ""}/${e.convention}`} className={styles.table} align={{}} />;
}
