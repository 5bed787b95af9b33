"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { IssueSummary } from "@/lib/contracts/issues";
import { issuesOptions } from "@/lib/query/issues";
import { stateLabel } from "./issue-format";

/** The issues page with one issue open. */
export const issueHref = (project: string, id: string) => `/issues?${new URLSearchParams({ project, issue: id }).toString()}`;

/**
 * The project's issues, read once per page (every link shares the list's cache entry) and matched
 * here by tool and code: a code that never failed has no issue, and then no link is drawn.
 */
function useProjectIssues(project: string): IssueSummary[] | undefined {
  return useQuery({ ...issuesOptions(project), staleTime: 10_000 }).data?.issues;
}

/** A link to the issue of one tool and code, naming its state; nothing when that code opened none. */
export function IssueLink(props: { project: string; tool: string; code: string; testId?: string }) {
  const issue = useProjectIssues(props.project)?.find((i) => i.tool === props.tool && i.code === props.code);
  if (!issue) return null;
  return (
    <Link href={issueHref(props.project, issue.id)} data-testid={props.testId ?? "issue-link"}>
      issue: {stateLabel(issue)} →
    </Link>
  );
}

/** The issues of a tool or of a code (each with its state and failures), as a short list of links; says so when there are none. */
export function IssuesPanel(props: { project: string; tool?: string; code?: string }) {
  const issues = useProjectIssues(props.project)?.filter((i) => (props.tool === undefined || i.tool === props.tool) && (props.code === undefined || i.code === props.code));
  return (
    <section className="panel" aria-labelledby="issues-panel-title">
      <h2 id="issues-panel-title">Issues{issues ? <span className="count"> · {issues.length}</span> : null}</h2>
      {issues === undefined ? (
        <p className="note">Loading…</p>
      ) : issues.length === 0 ? (
        <p className="note">No issue: nothing here has failed.</p>
      ) : (
        <ul className="link-list" data-testid="issues-panel">
          {issues.map((i) => (
            <li key={i.id}>
              <Link href={issueHref(props.project, i.id)}>
                {props.tool === undefined ? i.tool : i.code}
              </Link>{" "}
              · {stateLabel(i)} · {i.failures} failures in {i.runs} runs
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
