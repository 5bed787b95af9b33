"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef } from "react";
import type { SortState } from "@/components/data-table";
import { normalizeRunsFilters, runsListOptions, type RunsFilters } from "@/lib/query/runs";
import { RunsFiltersForm } from "./runs-filters-form";
import { TableScroll } from "@/components/data-table";
import { RunsTable } from "./runs-table";
import styles from "./runs.module.css";

const SORT_WORDS: Record<string, [string, string, string]> = {
  start: ["start", "oldest", "newest"],
  duration: ["duration", "shortest", "longest"],
  attempts: ["attempts", "fewest", "most"],
  retries: ["retries", "fewest", "most"],
  errors: ["final errors", "fewest", "most"],
  failedAttempts: ["attempts not ok", "fewest", "most"],
  toolCalls: ["tool calls", "fewest", "most"],
};

function sortWords(sort: string, dir: string): string {
  const [name, low, high] = SORT_WORDS[sort] ?? [sort, "lowest", "highest"];
  return `sorted by ${name}, ${dir === "asc" ? low : high} first`;
}

const runs = (n: number) => `${n.toLocaleString("en-US")} run${n === 1 ? "" : "s"}`;

/** "12 runs" when the page holds every match, else "50 on this page of 1,234 runs matching" (or "more than 10,000"). */
export function describeMatched(shown: number, matched: number, capped: boolean, laterPage: boolean): string {
  if (!capped && !laterPage && shown === matched) return runs(matched);
  return `${shown.toLocaleString("en-US")} on this page of ${capped ? `more than ${runs(matched)}` : runs(matched)} matching`;
}

/** The runs list; every filter lives in the URL so that other views can link here pre-filtered. */
export function RunsListView() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo(() => normalizeRunsFilters(Object.fromEntries(searchParams)), [searchParams]);
  // The previous page stays on screen (and keeps focus on the header that was used) while the next loads.
  const { data, error, isPending, isFetching } = useQuery({ ...runsListOptions(filters), placeholderData: keepPreviousData });
  const results = useRef<HTMLParagraphElement>(null);

  const setFilters = useCallback(
    (next: RunsFilters) => {
      // Any filter change starts again from the newest run.
      const { cursor: _cursor, ...rest } = next;
      const qs = new URLSearchParams(normalizeRunsFilters(rest) as Record<string, string>).toString();
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [pathname, router],
  );

  const sort: SortState = {
    sort: filters.sort ?? "start",
    dir: filters.dir ?? "desc",
    onSort: (column, dir) => setFilters({ ...filters, sort: column, dir }),
  };

  // Moving between pages puts focus on the results heading, so keyboard and screen-reader users
  // land on the new rows instead of on the body.
  const pageKey = filters.cursor ?? "";
  const lastPage = useRef(pageKey);
  useEffect(() => {
    if (lastPage.current !== pageKey) results.current?.focus();
    lastPage.current = pageKey;
  }, [pageKey]);

  const olderHref = data?.nextCursor
    ? `${pathname}?${new URLSearchParams({ ...filters, cursor: data.nextCursor } as Record<string, string>).toString()}`
    : null;
  const { cursor, ...withoutCursor } = filters;
  const newestQs = new URLSearchParams(withoutCursor as Record<string, string>).toString();

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>Runs</h1>
      <RunsFiltersForm filters={filters} onChange={setFilters} />
      {error ? (
        <p role="alert" className={styles.banner}>
          Could not load runs: {error.message}
        </p>
      ) : isPending ? (
        <p className={styles.muted}>Loading runs…</p>
      ) : data.runs.length === 0 ? (
        <p className={styles.panel}>No runs match these filters{cursor ? " on this page" : ""}.</p>
      ) : (
        <>
          <p ref={results} tabIndex={-1} className={styles.resultsHead} aria-live="polite" data-testid="runs-results">
            {describeMatched(data.runs.length, data.matched, data.matchedCapped, Boolean(cursor))} · {sortWords(sort.sort, sort.dir)}
          </p>
          <TableScroll label="Runs">
            <RunsTable runs={data.runs} project={filters.project} busy={isFetching} sort={sort} />
          </TableScroll>
        </>
      )}
      <nav className={styles.pager} aria-label="Pages">
        {cursor ? <Link href={newestQs ? `${pathname}?${newestQs}` : pathname}>← Newest runs</Link> : null}
        {olderHref ? <Link href={olderHref}>Older runs →</Link> : null}
      </nav>
    </div>
  );
}
