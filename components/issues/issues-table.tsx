"use client";

import Link from "next/link";
import { useMemo } from "react";
import { DataTable, type Column, type RowAttributes, type SortDir } from "@/components/data-table";
import type { IssueSummary } from "@/lib/contracts/issues";
import { groupIssueLabel } from "./group-issue";
import { IMPACT_SORT, isIssueSort, sortIssues } from "@/lib/triage/sort-issues";
import { formatTime, stateLabel } from "./issue-format";

function Trend({ t }: { t: IssueSummary["trend"] }) {
  const arrow = t.current > t.previous ? "↑" : t.current < t.previous ? "↓" : "→";
  return (
    <span title="failures in the last 24 hours against the 24 before">
      {t.current} {arrow} from {t.previous}
    </span>
  );
}

// On a phone each row reads as a card under its rank and name: every other cell is labelled with its column's header.
const labelled = (cols: Column<IssueSummary>[]): Column<IssueSummary>[] =>
  cols.map((c) => (typeof c.header !== "string" || c.id === "impact" || c.id === "issue" ? c : { ...c, cellAttributes: (i: IssueSummary) => ({ ...c.cellAttributes?.(i), "data-label": c.header as string }) }));

const columns = (href: (id: string) => string, rankOf: Map<string, number>, muted: string | undefined): Column<IssueSummary>[] => labelled([
  { id: "impact", header: "#", title: "rank by impact: regressions first, then unrecovered failures, runs, failures", sort: { key: IMPACT_SORT }, cell: (i) => rankOf.get(i.id) },
  {
    id: "issue", header: "Issue", sort: { key: "issue", first: "asc" },
    cell: (i) => (
      <>
        <Link href={href(i.id)} scroll={false}>
          {i.group ? groupIssueLabel(i.tool, i.group) : `${i.tool} / ${i.code}`}
        </Link>
        {i.group?.sample ? <div className={muted} data-testid="issue-sample">{i.group.sample}</div> : null}
      </>
    ),
  },
  { id: "state", header: "State", sort: { key: "state", first: "asc" }, cellAttributes: () => ({ "data-testid": "issue-state" }), cell: stateLabel },
  { id: "unrecovered", header: "Unrecovered", sort: { key: "unrecovered" }, cell: (i) => i.unrecovered },
  { id: "runs", header: "Runs", sort: { key: "runs" }, cell: (i) => i.runs },
  { id: "failures", header: "Failures", sort: { key: "failures" }, cell: (i) => i.failures },
  { id: "retries", header: "Retries (wait)", sort: { key: "retries" }, cell: (i) => `${i.retries} (${Math.round(i.waitMs / 1000)} s)` },
  { id: "trend", header: "Last 24 h", sort: { key: "trend" }, cell: (i) => <Trend t={i.trend} /> },
  { id: "first_seen", header: "First seen", sort: { key: "first_seen" }, cell: (i) => formatTime(i.firstSeen) },
  { id: "last_seen", header: "Last seen", sort: { key: "last_seen" }, cell: (i) => formatTime(i.lastSeen) },
  { id: "releases", header: "Releases", cell: (i) => (i.releases.first === i.releases.last ? i.releases.first : `${i.releases.first} – ${i.releases.last}`) },
  { id: "assignee", header: "Assignee", sort: { key: "assignee", first: "asc" }, cell: (i) => i.assignee?.name ?? <span className={muted}>nobody</span> },
]);

/**
 * The issues, in impact order as the API ranks them, sorted by the column the URL names (`sort`,
 * `dir`); impact stays the default, so regressions stay on top until the user sorts by another column.
 */
export function IssuesTable({ ranked, sort, dir, onSort, href, selected, className, muted }: {
  ranked: readonly IssueSummary[];
  sort: string | null;
  dir: string | null;
  onSort: (column: string, dir: SortDir) => void;
  href: (id: string) => string;
  selected: string | null;
  className?: string;
  muted?: string;
}) {
  const column = sort !== null && isIssueSort(sort) ? sort : IMPACT_SORT;
  const direction: SortDir = dir === "asc" ? "asc" : "desc";
  const rows = useMemo(() => sortIssues(ranked, column, direction), [ranked, column, direction]);
  const rankOf = useMemo(() => new Map(ranked.map((i, n) => [i.id, n + 1])), [ranked]);
  return (
    <DataTable
      columns={columns(href, rankOf, muted)}
      rows={rows}
      rowKey={(i) => i.id}
      rowAttributes={(i): RowAttributes => (i.id === selected ? { "data-issue": i.id, "data-selected": "true" } : { "data-issue": i.id })}
      className={className}
      align={{}}
      ariaLabel="Issues by impact"
      sort={{ sort: column, dir: direction, onSort }}
    />
  );
}
