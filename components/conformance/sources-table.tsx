import { DataTable, type Column } from "@/components/data-table";
import type { ConformanceSource as Source, Gap } from "@/lib/contracts/conformance";
import styles from "./conformance.module.css";
import { GapCell, gapCellProps } from "./gap-cell";
import { SOURCE_LABELS } from "./source-labels";

type GapKey = "outcome" | "code" | "attempt" | "release";

const gapColumn = (id: GapKey, header: string): Column<Source> => {
  const gap = (s: Source): Gap => s[id];
  return { id, header, cell: (s) => <GapCell gap={gap(s)} />, cellClassName: (s) => gapCellProps(gap(s)).className, cellTitle: (s) => gapCellProps(gap(s)).title };
};

const columns: Column<Source>[] = [
  {
    id: "source",
    header: "Format",
    rowHeader: true,
    cell: (s) => (
      <>
        {SOURCE_LABELS[s.source] ?? s.source}
        <span className={`${styles.count} ${styles.mono}`}>{s.source}</span>
      </>
    ),
  },
  { id: "spans", header: "Tool spans", cellClassName: styles.num, cell: (s) => s.spans },
  gapColumn("outcome", "Outcome unknown"),
  gapColumn("code", "Code unknown (non-ok)"),
  gapColumn("attempt", "Attempt unknown"),
  gapColumn("release", "Release unknown"),
];

/** Per ingest format, the share of its tool spans stored with each field unknown (derived values are known). */
export function SourcesTable({ sources }: { sources: Source[] }) {
  return <DataTable columns={columns} rows={sources} rowKey={(s) => s.source} className={styles.table} align={{}} />;
}
