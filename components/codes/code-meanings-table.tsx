import { DataTable, numberColumn, TableScroll, type Column } from "@/components/data-table";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatTime } from "@/lib/charts/time-format";
import type { TimeZone } from "@/lib/charts/time-zone";
import type { CodeDetail } from "@/lib/contracts/codes";

type Meaning = CodeDetail["meanings"][number];

const columnsIn = (zone: TimeZone): Column<Meaning>[] => [
  { id: "release", header: "release", align: "text", cellClassName: "text mono", cell: (m) => m.release || "(unknown)" },
  { id: "tool", header: "tool", align: "text", cellClassName: "name", cell: (m) => m.tool },
  { id: "toolVersion", header: "tool version", align: "text", cellClassName: "text mono", cell: (m) => m.toolVersion || "—" },
  { id: "class", header: "class", align: "text", cell: (m) => m.errorClass || "—" },
  { id: "retryable", header: "retryable", align: "text", cell: (m) => m.retryable },
  numberColumn("firstSeen", "first seen", (m) => m.firstSeen, (t) => formatTime(t, zone)),
  numberColumn("lastSeen", "last seen", (m) => m.lastSeen, (t) => formatTime(t, zone)),
];

// Every field of a meaning is part of its identity: two rows differ in at least one of them.
const meaningKey = (m: Meaning) => `${m.release}\u0000${m.tool}\u0000${m.toolVersion}\u0000${m.errorClass}\u0000${m.retryable}`;

/** What one code meant in each release, tool and tool version, all time. */
export function CodeMeaningsTable({ rows }: { rows: Meaning[] | undefined }) {
  const { zone } = useTimeZone();
  return (
    <TableScroll label="Meanings of this code">
      <DataTable columns={columnsIn(zone)} rows={rows} rowKey={meaningKey} testId="meanings" />
    </TableScroll>
  );
}
