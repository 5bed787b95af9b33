import { countColumn, DataTable, NameCell, type Column } from "@/components/data-table";
import { DriftBadge } from "@/components/drift/drift-badge";
import { formatPct } from "@/lib/charts/format";
import type { Overview } from "@/lib/contracts/overview";
import type { useUrlState } from "@/lib/query/use-url-state";

type TopTool = Overview["topTools"][number];

export function TopToolsTable({ rows, project, hrefWith }: {
  rows: TopTool[] | undefined;
  project: string;
} & Pick<ReturnType<typeof useUrlState>, "hrefWith">) {
  const columns: Column<TopTool>[] = [
    {
      id: "tool",
      header: "tool",
      align: "text",
      cellClassName: "name",
      cell: (t) => (
        <NameCell href={hrefWith(`/tools/${encodeURIComponent(t.tool)}`, { sort: undefined, dir: undefined })} marks={<DriftBadge tool={t.tool} project={project} />}>
          {t.tool}
        </NameCell>
      ),
    },
    countColumn("attempts", "attempts", (t) => t.attempts, { hideBelow: "sm" }),
    countColumn("failures", "failed", (t) => t.failures),
    {
      id: "failureRate",
      header: "failure rate",
      cell: (t) => (
        <>
          {formatPct(t.failureRate)}
          <span className="bar-cell" style={{ width: Math.round((t.failureRate ?? 0) * 40) }} aria-hidden="true" />
        </>
      ),
    },
    countColumn("declined", "declined", (t) => t.declined, { headerClassName: "declined-text", hideBelow: "sm" }),
    countColumn("refused", "refused", (t) => t.refused, { headerClassName: "refused-text", hideBelow: "sm" }),
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(t) => t.tool} testId="top-tools" empty="No failing tools in this range." />;
}
