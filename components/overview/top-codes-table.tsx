import { countColumn, DataTable, NameCell, type Column } from "@/components/data-table";
import { DriftBadge } from "@/components/drift/drift-badge";
import { formatCount } from "@/lib/charts/format";
import type { Overview } from "@/lib/contracts/overview";
import type { useUrlState } from "@/lib/query/use-url-state";

type TopCode = Overview["topCodes"][number];

export function TopCodesTable({ rows, project, hrefWith, update }: {
  rows: TopCode[] | undefined;
  project: string;
} & Pick<ReturnType<typeof useUrlState>, "hrefWith" | "update">) {
  const columns: Column<TopCode>[] = [
    {
      id: "code",
      header: "code",
      align: "text",
      cellClassName: "name",
      cell: (c) => (
        <NameCell href={hrefWith(`/codes/${encodeURIComponent(c.code)}`, { sort: undefined, dir: undefined })} marks={<DriftBadge code={c.code} project={project} />}>
          {c.code}
        </NameCell>
      ),
    },
    {
      id: "failures",
      header: "failed attempts",
      cell: (c) => (
        <button type="button" className="chip" onClick={() => update({ code: c.code })} title="Narrow to this code">
          {formatCount(c.failures)}
        </button>
      ),
    },
    countColumn("declined", "declined", (c) => c.declined, { headerClassName: "declined-text", hideBelow: "sm" }),
    countColumn("refused", "refused", (c) => c.refused, { headerClassName: "refused-text", hideBelow: "sm" }),
    { id: "tools", header: "tools", cell: (c) => c.tools, hideBelow: "sm" },
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(c) => c.code} testId="top-codes" empty="No failing codes in this range." />;
}
