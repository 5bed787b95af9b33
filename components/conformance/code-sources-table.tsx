import { DataTable, type Column } from "@/components/data-table";
import type { CodeSourceCounts } from "@/lib/contracts/conformance";
import styles from "./conformance.module.css";
import { SOURCE_LABELS } from "./source-labels";

const count = (id: keyof CodeSourceCounts & ("failures" | "emitter" | "rules" | "builtin" | "unclassified"), header: string): Column<CodeSourceCounts> => ({
  id, header, cellClassName: styles.num, cell: (r) => r[id],
});

const columns: Column<CodeSourceCounts>[] = [
  {
    id: "source",
    header: "Format · service",
    rowHeader: true,
    cell: (r) => (
      <>
        {SOURCE_LABELS[r.source] ?? r.source}
        <span className={`${styles.count} ${styles.mono}`}>{r.service ?? "no service"}</span>
      </>
    ),
  },
  count("failures", "Failures"),
  count("emitter", "Code sent by the emitter"),
  count("rules", "Code set by project rules"),
  count("builtin", "Code set by the built-in pack"),
  count("unclassified", "No code (unclassified)"),
];

/** Per format and service, the stored failures by where their code came from. */
export function CodeSourcesTable({ rows }: { rows: CodeSourceCounts[] }) {
  return <DataTable columns={columns} rows={rows} rowKey={(r) => `${r.source}\u0000${r.service ?? ""}`} className={styles.table} align={{}} />;
}
