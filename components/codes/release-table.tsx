import { DataTable, numberColumn, TableScroll, type Column } from "@/components/data-table";
import { KIND_LABEL } from "@/components/drift/labels";
import type { CodeReleaseChartData, ReleaseRow } from "@/lib/charts/code-release-history";
import { formatCount, formatMs, formatPct } from "@/lib/charts/format";

const pct = (v: number | null) => formatPct(v, 0);

/** One row per release of the emitting side, with the drift findings that changed the code there. */
export function ReleaseTable({ data }: { data: CodeReleaseChartData }) {
  const changeOf = (r: ReleaseRow) => {
    const cp = data.changePoints.find((c) => c.release === r.release);
    return cp ? cp.findings.map((f) => `${f.n} · ${KIND_LABEL[f.kind]} (${f.tool})`).join("; ") : "";
  };
  const columns: Column<ReleaseRow>[] = [
    { id: "release", header: "release", align: "text", cellClassName: "text mono", cell: (r) => r.release },
    { id: "calls", header: "calls", align: "num", cell: (r) => (r.absent ? "0 (code gone)" : formatCount(r.calls)) },
    numberColumn("retryableShare", "retryable share", (r) => r.retryableShare, pct),
    numberColumn("recoveryRate", "recovered later", (r) => r.recoveryRate, pct),
    numberColumn("retryAfter", "retry_after p50", (r) => r.retryAfterMedianMs, formatMs),
    { id: "change", header: "change", align: "text", cell: changeOf },
  ];
  return (
    <TableScroll label="The code by release">
      <DataTable
        columns={columns}
        rows={data.rows}
        rowKey={(r) => r.release}
        rowAttributes={(r) => ({ "data-release": r.release })}
        testId="release-table"
        style={{ marginTop: 8 }}
      />
    </TableScroll>
  );
}
