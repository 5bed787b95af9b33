import { countColumn, DataTable, numberColumn, type Column } from "@/components/data-table";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatTime } from "@/lib/charts/time-format";
import type { ToolDetail } from "@/lib/contracts/tool-detail";
import type { useUrlState } from "@/lib/query/use-url-state";

type ToolRelease = ToolDetail["releases"][number];

/** The releases one tool was seen in; a release narrows the page to it. */
export function ToolReleasesTable({ rows, update }: { rows: ToolRelease[] | undefined } & Pick<ReturnType<typeof useUrlState>, "update">) {
  const { zone } = useTimeZone();
  const columns: Column<ToolRelease>[] = [
    {
      id: "release",
      header: "release",
      align: "text",
      cellClassName: "name",
      cell: (r) => (
        <button type="button" className="chip" onClick={() => update({ release: r.release || undefined })}>
          {r.release || "(unknown)"}
        </button>
      ),
    },
    countColumn("attempts", "attempts", (r) => r.attempts),
    countColumn("failures", "attempts not ok", (r) => r.failures),
    numberColumn("firstSeen", "first seen (hour)", (r) => r.firstSeen, (t) => formatTime(t, zone)),
    numberColumn("lastSeen", "last seen (hour)", (r) => r.lastSeen, (t) => formatTime(t, zone)),
  ];
  return <DataTable columns={columns} rows={rows} rowKey={(r) => r.release} testId="releases" />;
}
