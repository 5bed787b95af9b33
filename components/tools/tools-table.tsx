import { countColumn, DataTable, NameCell, numberColumn, type Column, type SortState } from "@/components/data-table";
import { OutcomeSwatch } from "@/components/charts/fill-patterns";
import { DriftBadge } from "@/components/drift/drift-badge";
import { formatCount, formatMs, formatPct, formatRatio } from "@/lib/charts/format";
import type { ToolRow } from "@/lib/contracts/tools";
import type { useUrlState } from "@/lib/query/use-url-state";

export function ToolsTable({ rows, pending, busy, sort, project, hrefWith, update }: {
  rows: ToolRow[] | undefined;
  pending: boolean;
  busy: boolean;
  sort: SortState;
  project: string | undefined;
} & Pick<ReturnType<typeof useUrlState>, "hrefWith" | "update">) {
  const columns: Column<ToolRow>[] = [
    {
      id: "tool",
      header: "tool",
      sort: { key: "tool", first: "asc" },
      align: "text",
      cellClassName: "name",
      cell: (t) => (
        <NameCell href={hrefWith(`/tools/${encodeURIComponent(t.tool)}`, { sort: undefined, dir: undefined })} marks={<DriftBadge tool={t.tool} project={project} />}>
          {t.tool}
        </NameCell>
      ),
    },
    {
      id: "topCodes",
      header: "top codes (attempts not ok)",
      align: "text",
      cellClassName: "text wrap",
      priority: 2,
      cell: (t) => (
        <span className="chips">
          {t.topCodes.map((c) => (
            <button key={c.code} type="button" className="chip" onClick={() => update({ code: c.code })} title={`Narrow to ${c.code}`}>
              {c.code} <span className="num-muted">{formatCount(c.failures)}</span>
            </button>
          ))}
        </span>
      ),
    },
    // Per call, then per attempt: each figure says its unit, and "not ok" (any outcome but ok) never
    // borrows the name of the "failed" outcome.
    {
      id: "calls",
      header: "calls",
      sort: { key: "calls" },
      title: "tool calls (a call owns 1..N attempts)",
      cell: (t) => (
        <>
          {formatCount(t.calls)}
          {t.unnumbered > 0 && (
            <span className="num-muted" title="attempts sent without an attempt number, each counted as a call">
              {" "}({formatCount(t.unnumbered)} unnumbered)
            </span>
          )}
        </>
      ),
    },
    countColumn("callsNotOk", "calls not ok", (t) => t.callsNotOk, { sort: { key: "calls_not_ok" }, title: "calls whose last attempt was not ok: calls − ok attempts (an ok attempt ends its call)" }),
    numberColumn("callNotOkRate", "% calls not ok", (t) => t.callNotOkRate, formatPct, { sort: { key: "call_not_ok_rate" }, title: "calls not ok / calls" }),
    countColumn("attempts", "attempts", (t) => t.attempts, { priority: 2, sort: { key: "attempts" }, title: "every attempt of every call" }),
    countColumn("failures", "attempts not ok", (t) => t.failures, { sort: { key: "failures" }, title: "attempts whose outcome was not ok (failed, timed out, declined, refused, …)" }),
    numberColumn("failureRate", "% attempts not ok", (t) => t.failureRate, formatPct, { sort: { key: "failure_rate" }, title: "attempts not ok / attempts" }),
    countColumn("declined", <><OutcomeSwatch outcome="declined" /> declined</>, (t) => t.declined, { label: "declined", sort: { key: "declined" }, title: "attempts the tool said no to (ToolRefusal)" }),
    countColumn("refused", <><OutcomeSwatch outcome="refused" /> refused</>, (t) => t.refused, { label: "refused", sort: { key: "refused" }, title: "attempts the permission layer said no to (the tool never ran)" }),
    numberColumn("meanAttempts", "mean attempts", (t) => t.meanAttempts, formatRatio, { priority: 2, sort: { key: "mean_attempts" }, title: "attempts per call" }),
    numberColumn("maxAttempts", "max", (t) => t.maxAttempts, String, { label: "max attempts", priority: 3, sort: { key: "max_attempts" } }),
    numberColumn("retryShare", "needed retry", (t) => t.retryShare, formatPct, { priority: 3, sort: { key: "retry_share" }, title: "share of calls with a second attempt" }),
    numberColumn("retryAfterP50", "retry_after p50", (t) => t.retryAfter.p50, formatMs, { sort: { key: "retry_after_p50" } }),
    numberColumn("retryAfterP90", "p90", (t) => t.retryAfter.p90, formatMs, { label: "retry_after p90", priority: 3, sort: { key: "retry_after_p90" } }),
    numberColumn("backoffP50", "backoff p50", (t) => t.backoff.p50, formatMs, { sort: { key: "backoff_p50" } }),
    numberColumn("backoffP90", "p90", (t) => t.backoff.p90, formatMs, { label: "backoff p90", priority: 3, sort: { key: "backoff_p90" } }),
    countColumn("failedClosed", "failed closed", (t) => t.failedClosed, { sort: { key: "failed_closed" } }),
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(t) => t.tool}
      rowAttributes={(t) => ({ "data-tool": t.tool })}
      testId="tools-table"
      chooser="tools"
      busy={busy}
      sort={sort}
      placeholder={pending ? "Loading tools…" : null}
      empty="No tool calls match this range and these filters."
    />
  );
}
