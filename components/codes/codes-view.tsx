"use client";

import { lazy } from "react";
import { AfterHydration } from "@/components/shell/after-hydration";
import { FilterBar } from "@/components/dashboard/filter-bar";
import { QueryError } from "@/components/dashboard/query-error";
import { useKeptQuery } from "@/lib/query/use-kept-query";
import { TablePager, TableScroll, urlSort } from "@/components/data-table";
import { codesQuery } from "@/lib/query/code-queries";
import { useUrlState } from "@/lib/query/use-url-state";
import { CodesTable } from "./codes-table";
import { FailureGroupsFrame } from "./failure-groups-frame";

// Below the codes table, and read in the browser in any case: the panel, its naming form and the
// classification contract load after the first paint instead of with the page.
const FailureGroups = lazy(() => import("./failure-groups").then((m) => ({ default: m.FailureGroups })));

export function CodesView() {
  const url = useUrlState();
  const { search, update, hrefWith } = url;
  const q = useKeptQuery(codesQuery(search));
  return (
    <>
      <div className="page-head">
        <h1>Codes</h1>
        <span className="sub">first/last seen are all-time sightings</span>
      </div>
      <FilterBar show={["outcome", "error_class", "release", "service", "environment"]} />
      {q.error && <QueryError error={q.error} stale={q.stale} />}
      <TablePager page={q.data?.page} noun="codes" one="code" q={search.q} update={update} />
      <TableScroll label="Codes" className="panel" minHeight={200}>
        <CodesTable rows={q.data?.codes} pending={q.isPending} sort={urlSort(url, "failures")} project={search.project} hrefWith={hrefWith} update={update} />
      </TableScroll>
      <AfterHydration
        fallback={
          <FailureGroupsFrame>
            <p>Loading…</p>
          </FailureGroupsFrame>
        }
      >
        <FailureGroups project={search.project ?? "default"} range={search.range} />
      </AfterHydration>
    </>
  );
}
