import Link from "next/link";
import { DataTable, type Column, type SortState } from "@/components/data-table";
import { formatCount } from "@/lib/charts/format";
import type { RunListItem } from "@/lib/contracts/runs";
import { useTimeZone } from "@/components/shell/time-zone-provider";
import { formatDuration } from "@/lib/charts/timeline-labels";
import { formatWallTime } from "@/lib/charts/time-format";
import { zoneLabelOf } from "@/lib/charts/time-zone";
import styles from "./runs.module.css";

// A field the run's records did not carry; distinct from "run record missing" in the state column.
const unknown = <span className={styles.muted}>unknown</span>;

type CountKey = "toolCalls" | "attempts" | "retries" | "failedAttempts" | "errors" | "declined" | "refused";
// The counters the runs API can order by (lib/contracts/runs.ts RUN_SORTS).
const SORTABLE = new Set<CountKey>(["toolCalls", "attempts", "retries", "failedAttempts", "errors"]);

/** Counters fade when zero so the runs that did something stand out. */
const count = (id: CountKey, header: string, title?: string, priority?: 2 | 3): Column<RunListItem> => ({
  id,
  header,
  title,
  priority,
  align: "num",
  sort: SORTABLE.has(id) ? { key: id } : undefined,
  cellClassName: (r) => `${styles.num} ${r[id] === 0 ? styles.zero : ""}`,
  cell: (r) => formatCount(r[id]),
});

const stateCell = (r: RunListItem) =>
  r.hasRunRecord ? (
    <span className={styles.state} data-state={r.state ?? ""}>
      {r.state}
    </span>
  ) : (
    <span className={styles.state} data-state="missing" title="spans or tool errors arrived, the run record did not">
      run record missing
    </span>
  );

const durationCell = (r: RunListItem) =>
  r.durationMs !== null ? formatDuration(r.durationMs) : r.endedAt === null ? <span className={styles.muted}>running</span> : unknown;

export function RunsTable({ runs, project, busy, sort }: { runs: RunListItem[]; project: string | undefined; busy: boolean; sort: SortState }) {
  const suffix = project && project !== "default" ? `?project=${encodeURIComponent(project)}` : "";
  const { zone, label } = useTimeZone();
  // The header names the zone once for the column, by the names its own times carry ("EST/EDT").
  const zoneName = zoneLabelOf(zone, runs.flatMap((r) => (r.startedAt === null ? [] : [r.startedAt])), label);
  const columns: Column<RunListItem>[] = [
    { id: "run", header: "Run", cellClassName: styles.mono, cell: (r) => <Link href={`/runs/${encodeURIComponent(r.runId)}${suffix}`}>{r.runId}</Link> },
    { id: "agent", header: "Agent", priority: 2, cell: (r) => r.agent ?? unknown },
    { id: "release", header: "Release", priority: 3, cell: (r) => r.release ?? unknown },
    { id: "state", header: "Final state", cell: stateCell },
    { id: "startedAt", header: `Started (${zoneName})`, sort: { key: "start" }, cellClassName: styles.mono, cell: (r) => (r.startedAt === null ? unknown : formatWallTime(r.startedAt, zone)) },
    { id: "duration", header: "Duration", sort: { key: "duration" }, align: "num", cell: durationCell },
    count("toolCalls", "Tool calls"),
    count("attempts", "Attempts"),
    count("retries", "Retries", "attempts after the first"),
    count("failedAttempts", "Attempts not ok", "attempts whose outcome was not ok (failed, timed out, declined, refused, …)"),
    count("errors", "Final errors", "calls that ended in a final tool error"),
    count("declined", "Declined", "the tool said no (ToolRefusal)"),
    count("refused", "Refused", "the permission layer said no"),
    {
      id: "unanswered",
      header: "Unanswered",
      title: "tool calls the model asked for that got no result (the runtime's count; — when it did not track the model's turns)",
      align: "num",
      cellClassName: (r) => `${styles.num} ${r.unansweredToolUses ? "" : styles.zero}`,
      cell: (r) => (r.unansweredToolUses === null ? "—" : formatCount(r.unansweredToolUses)),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={runs}
      rowKey={(r) => r.runId}
      rowAttributes={(r) => ({ "data-run-id": r.runId })}
      className={styles.table}
      align={{ num: styles.num }}
      testId="runs-table"
      chooser="runs"
      busy={busy}
      sort={sort}
    />
  );
}
