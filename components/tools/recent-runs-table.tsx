import Link from "next/link";
import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { DataTable, type Column } from "@/components/data-table";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatCount } from "@/lib/charts/format";
import { formatTime } from "@/lib/charts/time-format";
import { outcomeStyle } from "@/lib/charts/outcomes";
import type { TimeZone } from "@/lib/charts/time-zone";
import type { ToolDetail } from "@/lib/contracts/tool-detail";

type RecentRun = ToolDetail["recentFailingRuns"][number];

const columnsIn = (zone: TimeZone): Column<RecentRun>[] => [
  { id: "run", header: "run", align: "text", cellClassName: "name", cell: (r) => <Link href={`/runs/${encodeURIComponent(r.runId)}`}>{r.runId}</Link> },
  { id: "lastAt", header: "last attempt not ok", align: "text", cell: (r) => formatTime(r.lastAt, zone) },
  { id: "failedAttempts", header: "attempts not ok", align: "num", cell: (r) => formatCount(r.failedAttempts) },
  { id: "maxAttempt", header: "highest attempt", align: "num", cell: (r) => r.maxAttempt ?? "—" },
  {
    id: "outcomes",
    header: "outcomes",
    align: "text",
    cell: (r) =>
      r.outcomes.map((o) => (
        <span key={o} className="chips" style={{ display: "inline-flex", marginRight: 6 }}>
          <OutcomeSwatch outcome={o} /> {outcomeStyle(o).label}
        </span>
      )),
  },
  { id: "codes", header: "codes", align: "text", cellClassName: "text mono", cell: (r) => r.codes.join(", ") },
];

/** The tool's most recent failing runs, each linking to its timeline. */
export function RecentRunsTable({ rows }: { rows: RecentRun[] | undefined }) {
  const { zone } = useTimeZone();
  return <DataTable columns={columnsIn(zone)} rows={rows} rowKey={(r) => r.runId} testId="recent-runs" empty="No failing runs of this tool in this range." />;
}
