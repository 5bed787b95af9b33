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
  gapColumn("outcome", "No outcome"),
  gapColumn("code", "No code (non-ok)"),
  gapColumn("attempt", "No attempt"),
  gapColumn("release", "No release"),
];

/** Per ingest format, the share of its tool spans that lack each field. */
export function SourcesTable({ sources }: { sources: Source[] }) {
  return <DataTable columns={columns} rows={sources} rowKey={(s) => s.source} className={styles.table} align={{}} />;
}
