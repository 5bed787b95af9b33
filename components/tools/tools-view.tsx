"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { DriftBadge } from "@/components/drift/drift-badge";
import { QueryError } from "@/components/dashboard/query-error";
import { SortHeader } from "@/components/dashboard/sort-header";
import { formatCount, formatMs, formatPct, formatRatio } from "@/lib/charts/format";
import { toolsQuery } from "@/lib/query/keys";
import { FILTER_SEARCH_KEYS, pick, toQueryString } from "@/lib/query/search";
import { useUrlState } from "@/lib/query/use-url-state";

const COLUMNS: { column: string; label: string; title?: string; className?: string }[] = [
  { column: "calls", label: "calls" },
  { column: "failure_rate", label: "failure rate", title: "attempts not ok / attempts" },
  { column: "declined", label: "declined", title: "the tool said no", className: "declined-text" },
  { column: "refused", label: "refused", title: "permission said no", className: "refused-text" },
  { column: "mean_attempts", label: "mean attempts", title: "attempts per call" },
  { column: "max_attempts", label: "max" },
  { column: "retry_share", label: "needed retry", title: "share of calls with a second attempt" },
  { column: "retry_after_p50", label: "retry_after p50" },
  { column: "retry_after_p90", label: "p90" },
  { column: "backoff_p50", label: "backoff p50" },
  { column: "backoff_p90", label: "p90" },
  { column: "failed_closed", label: "failed closed" },
];

export function ToolsView() {
  const { search, update, hrefWith } = useUrlState();
  const q = useQuery({ ...toolsQuery(search), placeholderData: keepPreviousData });
  const sort = search.sort ?? "failures";
  const dir = search.dir ?? "desc";
  const onSort = (column: string, d: "asc" | "desc") => update({ sort: column, dir: d });
  const exportHref = (format: string) => `/api/v1/tools${toQueryString(pick(search, [...FILTER_SEARCH_KEYS, "sort", "dir"]), { format })}`;
  return (
    <>
      <div className="page-head">
        <h1>Tools</h1>
        <span className="sub">{q.data ? `${q.data.tools.length} tools` : "…"}</span>
        <span style={{ marginLeft: "auto" }} className="chips">
          <a className="btn" href={exportHref("csv")} download>
            Export CSV
          </a>
          <a className="btn" href={exportHref("ndjson")} download>
            Export NDJSON
          </a>
        </span>
      </div>
      <FilterBar />
      {q.error && <QueryError error={q.error} />}
      {q.data && q.data.delaysIgnoreFilters.length > 0 && (
        <p className="note">retry_after and backoff percentiles are not narrowed by {q.data.delaysIgnoreFilters.join(" or ")} (the delay histograms do not keep them).</p>
      )}
      <div className="panel table-wrap" style={{ minHeight: 200 }}>
        <table className="data" data-testid="tools-table" aria-busy={q.isFetching}>
          <thead>
            <tr>
              <SortHeader column="tool" label="tool" sort={sort} dir={dir} onSort={onSort} className="text" />
              <th className="text" scope="col">top codes (failed attempts)</th>
              <SortHeader column="failures" label="failed" sort={sort} dir={dir} onSort={onSort} title="attempts not ok" />
              {COLUMNS.map((c) => (
                <SortHeader key={c.column} {...c} sort={sort} dir={dir} onSort={onSort} />
              ))}
            </tr>
          </thead>
          <tbody>
            {q.data?.tools.map((t) => (
              <tr key={t.tool} data-tool={t.tool}>
                <td className="name">
                  <Link href={hrefWith(`/tools/${encodeURIComponent(t.tool)}`, { sort: undefined, dir: undefined })}>{t.tool}</Link>
                  <span className="cell-marks"><DriftBadge tool={t.tool} project={search.project} /></span>
                </td>
                <td className="text">
                  <span className="chips">
                    {t.topCodes.map((c) => (
                      <button key={c.code} type="button" className="chip" onClick={() => update({ code: c.code })} title={`Narrow to ${c.code}`}>
                        {c.code} <span className="num-muted">{formatCount(c.failures)}</span>
                      </button>
                    ))}
                  </span>
                </td>
                <td>{formatCount(t.failures)}</td>
                <td>
                  {formatCount(t.calls)}
                  {t.unnumbered > 0 && (
                    <span className="num-muted" title="attempts sent without an attempt number, each counted as a call">
                      {" "}({formatCount(t.unnumbered)} unnumbered)
                    </span>
                  )}
                </td>
                <td>{formatPct(t.failureRate)}</td>
                <td>{formatCount(t.declined)}</td>
                <td>{formatCount(t.refused)}</td>
                <td>{formatRatio(t.meanAttempts)}</td>
                <td>{t.maxAttempts}</td>
                <td>{formatPct(t.retryShare)}</td>
                <td>{formatMs(t.retryAfter.p50)}</td>
                <td>{formatMs(t.retryAfter.p90)}</td>
                <td>{formatMs(t.backoff.p50)}</td>
                <td>{formatMs(t.backoff.p90)}</td>
                <td>{formatCount(t.failedClosed)}</td>
              </tr>
            ))}
            {q.isPending && (
              <tr>
                <td colSpan={15} className="empty-state">Loading tools…</td>
              </tr>
            )}
            {q.data && q.data.tools.length === 0 && (
              <tr>
                <td colSpan={15} className="empty-state">No tool calls match this range and these filters.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <p className="note">Percentiles are the upper bound of the delay-histogram bucket holding the sample (exact for 1 s, 2 s, 30 s, 1 h…; otherwise they err high).</p>
    </>
  );
}
