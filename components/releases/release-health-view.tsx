"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { QueryError } from "@/components/dashboard/query-error";
import { DataTable, TableScroll, type Column } from "@/components/data-table";
import { issueHref } from "@/components/issues/issue-links";
import { formatCount, formatPct } from "@/lib/charts/format";
import { formatUtcMinute } from "@/lib/charts/time-format";
import type { ReleaseHealth, ReleaseIssue, ToolHealth } from "@/lib/contracts/releases";
import { releaseHealthOptions } from "@/lib/query/releases";
import { AdoptionPanel } from "./adoption-panel";
import { releaseHref } from "./releases-view";

type ToolRow = ReleaseHealth["tools"][number];

const share = (x: number | null, none: string) => (x === null ? none : formatPct(x));
/** A figure and, when the previous release had the tool, the figure there. */
const compared = (now: string, before: ToolHealth | null, then: (h: ToolHealth) => string) => (before === null ? now : `${now} (was ${then(before)})`);

function IssueList({ title, issues, project, testId, failuresIn }: { title: string; issues: ReleaseIssue[]; project: string; testId: string; failuresIn: string }) {
  return (
    <section className="panel" aria-label={title}>
      <h2>
        {title} <span className="count">· {issues.length}</span>
      </h2>
      {issues.length === 0 ? (
        <p className="note">None.</p>
      ) : (
        <ul className="link-list" data-testid={testId}>
          {issues.map((i) => (
            <li key={i.id}>
              <Link href={issueHref(project, i.id)}>
                {i.tool} / {i.code}
              </Link>{" "}
              · {i.state} · {formatCount(i.failures)} failures {failuresIn}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One release at a glance: every tool against the previous release, the issues it brought, brought back and fixed, and its adoption. */
export function ReleaseHealthView({ release }: { release: string }) {
  const project = useSearchParams().get("project") || "default";
  const q = useQuery(releaseHealthOptions(project, release));
  const d = q.data;
  const was = d?.previous ? ` in ${d.previous}` : "";
  const columns: Column<ToolRow>[] = [
    { id: "tool", header: "Tool", rowHeader: true, cell: (t) => <Link href={`/tools/${encodeURIComponent(t.tool)}?${new URLSearchParams({ project }).toString()}`}>{t.tool}</Link> },
    { id: "calls", header: "Calls", align: "num", cell: (t) => compared(formatCount(t.calls), t.previous, (p) => formatCount(p.calls)), cellAttributes: (t) => ({ "data-calls": String(t.calls) }) },
    {
      id: "failure",
      header: "Calls not ok",
      title: "share of calls that did not end ok",
      align: "num",
      cell: (t) => compared(share(t.failureShare, "no calls"), t.previous, (p) => share(p.failureShare, "no calls")),
      cellAttributes: (t) => ({ "data-failure-share": String(t.failureShare) }),
    },
    {
      id: "self",
      header: "Self-correction",
      title: "share of errors surfaced to the model that it recovered from",
      align: "num",
      cell: (t) => compared(share(t.selfCorrection, "none surfaced"), t.previous, (p) => share(p.selfCorrection, "none surfaced")),
      cellAttributes: (t) => ({ "data-self-correction": String(t.selfCorrection) }),
    },
  ];
  return (
    <>
      <div className="page-head">
        <h1>
          Release <span className="mono" data-testid="release-name">{release}</span>
        </h1>
        <Link href={`/releases?${new URLSearchParams({ project }).toString()}`}>all releases →</Link>
        {d?.previous ? <Link href={releaseHref(project, d.previous)}>previous: {d.previous} →</Link> : null}
      </div>
      {q.error ? <QueryError error={q.error} /> : null}
      {d ? (
        <p className="note" data-testid="release-summary">
          {formatCount(d.runs)} runs · seen {formatUtcMinute(d.firstSeen)} to {formatUtcMinute(d.lastSeen)} UTC ·{" "}
          {d.previous ? `compared with ${d.previous} (ordered by ${d.order === "semver" ? "version" : "first sighting"})` : "the first release seen: nothing to compare with"}
        </p>
      ) : null}
      <section className="panel" aria-labelledby="release-tools-title">
        <h2 id="release-tools-title">Tools{was ? ` (figures${was} in brackets)` : ""}</h2>
        <TableScroll label="Tools in this release">
          <DataTable
            testId="release-tools"
            columns={columns}
            rows={d?.tools}
            rowKey={(t) => t.tool}
            rowAttributes={(t) => ({ "data-tool": t.tool })}
            ariaLabel="Tools in this release"
            placeholder={q.isPending ? "Loading…" : ""}
            empty="No tool was called in this release."
          />
        </TableScroll>
      </section>
      {d ? (
        <div className="grid-2">
          <IssueList title="New issues" issues={d.issues.new} project={project} testId="release-new" failuresIn={`in ${release}`} />
          <IssueList title="Regressed issues" issues={d.issues.regressed} project={project} testId="release-regressed" failuresIn={`in ${release}`} />
          <IssueList title="Resolved issues" issues={d.issues.resolved} project={project} testId="release-resolved" failuresIn={d.previous ? `in ${d.previous}` : ""} />
        </div>
      ) : null}
      <AdoptionPanel project={project} highlight={release} />
    </>
  );
}
