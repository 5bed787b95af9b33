"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { ISSUE_STATE_FILTERS, type IssueSummary } from "@/lib/contracts/issues";
import { issuesOptions } from "@/lib/query/issues";
import styles from "../alerts/alerts.module.css";
import { IssueDetailPanel } from "./issue-detail";
import { formatTime, stateLabel } from "./issue-format";

function Trend({ t }: { t: IssueSummary["trend"] }) {
  const arrow = t.current > t.previous ? "↑" : t.current < t.previous ? "↓" : "→";
  return (
    <span title="failures in the last 24 hours against the 24 before">
      {t.current} {arrow} from {t.previous}
    </span>
  );
}

/** The project's issues ranked by impact, with filters; `?issue=<id>` opens one below the list. */
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
          <table className={`${styles.table} ${styles.stackOnPhone}`} aria-label="Issues by impact">
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">State</th>
                <th scope="col">Unrecovered</th>
                <th scope="col">Runs</th>
                <th scope="col">Failures</th>
                <th scope="col">Retries (wait)</th>
                <th scope="col">Last 24 h</th>
                <th scope="col">First / last seen</th>
                <th scope="col">Releases</th>
                <th scope="col">Assignee</th>
              </tr>
            </thead>
            <tbody>
              {data.issues.map((i) => (
                <tr key={i.id} data-issue={i.id} aria-selected={i.id === selected || undefined}>
                  <td>
                    <Link href={hrefWith({ issue: i.id })} scroll={false}>
                      {i.tool} / {i.code}
                    </Link>
                  </td>
                  <td data-testid="issue-state" data-label="State">
                    {stateLabel(i)}
                  </td>
                  <td data-label="Unrecovered">{i.unrecovered}</td>
                  <td data-label="Runs">{i.runs}</td>
                  <td data-label="Failures">{i.failures}</td>
                  <td data-label="Retries (wait)">
                    {i.retries} ({Math.round(i.waitMs / 1000)} s)
                  </td>
                  <td data-label="Last 24 h">
                    <Trend t={i.trend} />
                  </td>
                  <td data-label="First / last seen">
                    {formatTime(i.firstSeen)} / {formatTime(i.lastSeen)}
                  </td>
                  <td data-label="Releases">{i.releases.first === i.releases.last ? i.releases.first : `${i.releases.first} – ${i.releases.last}`}</td>
                  <td data-label="Assignee">{i.assignee?.name ?? <span className={styles.muted}>nobody</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {selected ? <IssueDetailPanel project={project} id={selected} /> : null}
    </section>
  );
}
