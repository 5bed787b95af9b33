"use client";

import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { ISSUE_STATE_FILTERS } from "@/lib/contracts/issues";
import { issuesOptions } from "@/lib/query/issues";
import styles from "../alerts/alerts.module.css";
import { IssueDetailPanel } from "./issue-detail";
import { IssuesTable } from "./issues-table";

/** The project's issues ranked by impact (or sorted by a column), with filters; `?issue=<id>` opens one below the list. */
export function IssuesView() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const project = search.get("project") || "default";
  const filters = { state: search.get("state") ?? "", tool: search.get("tool") ?? "", code: search.get("code") ?? "", assignee: search.get("assignee") ?? "" };
  const selected = search.get("issue");
  const { data, error, isPending } = useQuery({ ...issuesOptions(project, filters), refetchInterval: 5000 });
  const hrefWith = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(search.toString());
    for (const [k, v] of Object.entries(changes)) if (v) next.set(k, v);
    else next.delete(k);
    return `${pathname}?${next.toString()}`;
  };
  return (
    <section className={styles.page} aria-labelledby="issues-title">
      <h1 id="issues-title" className={styles.title}>
        Issues
      </h1>
      <form className={styles.actions} aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          State{" "}
          <select value={filters.state} onChange={(e) => router.replace(hrefWith({ state: e.target.value || null }))} aria-label="State">
            <option value="">every state</option>
            {ISSUE_STATE_FILTERS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tool{" "}
          <input defaultValue={filters.tool} aria-label="Tool" onBlur={(e) => router.replace(hrefWith({ tool: e.target.value.trim() || null }))} />
        </label>
        {data ? (
          <span className={styles.muted}>
            {data.counts.unresolved} unresolved ({data.counts.regressed} regressed), {data.counts.resolved} resolved, {data.counts.ignored} ignored
          </span>
        ) : null}
      </form>
      <div className={styles.panel}>
        {isPending ? (
          <p className={styles.muted}>Loading…</p>
        ) : error ? (
          <p role="alert">Could not load the issues: {error.message}</p>
        ) : data.issues.length === 0 ? (
          <p className={styles.muted}>No issue matches: nothing has failed here, or the filters leave nothing.</p>
        ) : (
          <IssuesTable
            ranked={data.issues}
            sort={search.get("sort")}
            dir={search.get("dir")}
            onSort={(sort, dir) => router.replace(hrefWith({ sort, dir }), { scroll: false })}
            href={(id) => hrefWith({ issue: id })}
            selected={selected}
            className={`${styles.table} ${styles.stackOnPhone}`}
            muted={styles.muted}
          />
        )}
      </div>
      {selected ? <IssueDetailPanel project={project} id={selected} /> : null}
    </section>
  );
}
