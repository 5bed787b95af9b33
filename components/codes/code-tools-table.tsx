import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { countColumn, DataTable, NameCell, type Column } from "@/components/data-table";
import { DriftBadge } from "@/components/drift/drift-badge";
import type { CodeDetail } from "@/lib/contracts/codes";
import type { useUrlState } from "@/lib/query/use-url-state";

type CodeTool = CodeDetail["byTool"][number];

/** The tools that emit one code, each linking to its tool page narrowed to the code. */
export function CodeToolsTable({ code, rows, project, hrefWith }: {
  code: string;
  rows: CodeTool[] | undefined;
  project: string | undefined;
} & Pick<ReturnType<typeof useUrlState>, "hrefWith">) {
  const columns: Column<CodeTool>[] = [
    {
      id: "tool",
      header: "tool",
      align: "text",
      cellClassName: "name",
      cell: (t) => (
        <NameCell href={hrefWith(`/tools/${encodeURIComponent(t.tool)}`, { code })} marks={<DriftBadge code={code} tool={t.tool} project={project} />}>
          {t.tool}
        </NameCell>
      ),
    },
    countColumn("attempts", "attempts", (t) => t.attempts),
    countColumn("failures", "attempts not ok", (t) => t.failures),
    countColumn("declined", <><OutcomeSwatch outcome="declined" /> declined</>, (t) => t.declined, { title: "attempts the tool said no to" }),
    countColumn("refused", <><OutcomeSwatch outcome="refused" /> refused</>, (t) => t.refused, { title: "attempts the permission layer said no to" }),
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(t) => t.tool} />;
}
