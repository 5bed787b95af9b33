import { countColumn, DataTable, NameCell, TableScroll, type Column } from "@/components/data-table";
import { DriftBadge } from "@/components/drift/drift-badge";
import { formatMs } from "@/lib/charts/format";
import type { ToolDetail } from "@/lib/contracts/tool-detail";

type CodeDelays = ToolDetail["delaysByCode"][number];

const meanWithCount = (mean: number | null, count: number) => (
  <>
    {formatMs(mean)} <span className="num-muted">({count})</span>
  </>
);

/** Per code of one tool: the mean retry_after asked against the mean backoff waited. */
export function DelaysByCodeTable({ rows, tool, project }: { rows: CodeDelays[]; tool: string; project: string | undefined }) {
  const columns: Column<CodeDelays>[] = [
    {
      id: "code",
      header: "code",
      align: "text",
      cellClassName: "name",
      cell: (c) => <NameCell marks={<DriftBadge code={c.code} tool={tool} project={project} />}>{c.code}</NameCell>,
    },
    { id: "retryAfter", header: "mean retry_after asked", align: "num", cell: (c) => meanWithCount(c.retryAfterMeanMs, c.retryAfterCount) },
    { id: "backoff", header: "mean backoff waited", align: "num", cell: (c) => meanWithCount(c.backoffMeanMs, c.backoffCount) },
    countColumn("failedClosed", "failed closed", (c) => c.failedClosed),
  ];
  return (
    <TableScroll label="Delays by code">
      <DataTable columns={columns} rows={rows} rowKey={(c) => c.code} testId="delays-by-code" style={{ marginTop: 8 }} />
    </TableScroll>
  );
}
