"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { normalizeRunsFilters, runsListOptions, type RunsFilters } from "@/lib/query/runs";
import { RunsFiltersForm } from "./runs-filters-form";
import { RunsTable } from "./runs-table";
import styles from "./runs.module.css";

/** The runs list; every filter lives in the URL so that other views can link here pre-filtered. */
export function RunsListView() {
  const searchParams = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filters = useMemo(() => normalizeRunsFilters(Object.fromEntries(searchParams)), [searchParams]);
  const { data, error, isPending, isFetching } = useQuery(runsListOptions(filters));

  const setFilters = useCallback(
    (next: RunsFilters) => {
      // Any filter change starts again from the newest run.
      const { cursor: _cursor, ...rest } = next;
      const qs = new URLSearchParams(normalizeRunsFilters(rest) as Record<string, string>).toString();
      router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
    },
    [pathname, router],
  );

  const olderHref = data?.next_cursor
    ? `${pathname}?${new URLSearchParams({ ...filters, cursor: data.next_cursor } as Record<string, string>).toString()}`
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
        <RunsTable runs={data.runs} project={filters.project} busy={isFetching} />
      )}
      <nav className={styles.pager} aria-label="Pages">
        {cursor ? <Link href={newestQs ? `${pathname}?${newestQs}` : pathname}>← Newest runs</Link> : null}
        {olderHref ? <Link href={olderHref}>Older runs →</Link> : null}
      </nav>
    </div>
  );
}
