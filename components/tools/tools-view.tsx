"use client";

import { FilterBar } from "@/components/dashboard/filter-bar";
import { QueryError } from "@/components/dashboard/query-error";
import { useKeptQuery } from "@/lib/query/use-kept-query";
import { TablePager, TableScroll, urlSort } from "@/components/data-table";
import { toolsQuery } from "@/lib/query/tool-queries";
import { FILTER_SEARCH_KEYS, pick, toQueryString } from "@/lib/query/search";
import { useUrlState } from "@/lib/query/use-url-state";
import { ToolsTable } from "./tools-table";

export function ToolsView() {
  const url = useUrlState();
  const { search, update, hrefWith } = url;
  const q = useKeptQuery(toolsQuery(search));
  const exportHref = (format: string) => `/api/v1/tools${toQueryString(pick(search, [...FILTER_SEARCH_KEYS, "sort", "dir", "q"]), { format })}`;
  return (
    <>
      <div className="page-head">
        <h1>Tools</h1>
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
      {q.error && <QueryError error={q.error} stale={q.stale} />}
      {q.data && q.data.delaysIgnoreFilters.length > 0 && (
        <p className="note">retry_after and backoff percentiles are not narrowed by {q.data.delaysIgnoreFilters.join(" or ")} (the delay histograms do not keep them).</p>
      )}
      <TablePager page={q.data?.page} noun="tools" one="tool" q={search.q} update={update} />
      <TableScroll label="Tools" className="panel" minHeight={200}>
        <ToolsTable rows={q.data?.tools} pending={q.isPending} busy={q.isFetching} sort={urlSort(url, "failures")} project={search.project} hrefWith={hrefWith} update={update} />
      </TableScroll>
      <p className="note" data-testid="hours-note">
        Counts are by whole UTC hours of the range; an alert rule counts a rolling window that may start or end within an hour, so its figure for the same day can differ.
      </p>
      <p className="note">Percentiles are the upper bound of the delay-histogram bucket holding the sample (exact for 1 s, 2 s, 30 s, 1 h…; otherwise they err high).</p>
    </>
  );
}
