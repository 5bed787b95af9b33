import Link from "next/link";
import type { IssueDetail, IssueGroup } from "@/lib/contracts/issues";
import { issueHref } from "./issue-links";

/** The Codes page's row of a failure group, where "Name this failure" is; 90 days so an old group is still listed. */
export const failureGroupHref = (project: string, key: string) => `/codes?${new URLSearchParams({ project, range: "90d" }).toString()}#group-${key}`;

/** How the issues table names a group's issue: its tool and message shape. */
export const groupIssueLabel = (tool: string, g: IssueGroup) => `${tool} / unclassified: ${g.shape || (g.shape === null ? `group ${g.key}` : "(no message)")}`;

/** A failure group's issue: what its failures look like, where to name them, and the code a rule named them as. */
export function GroupIssueFacts({ project, group, namedAs }: { project: string; group: IssueGroup; namedAs: IssueDetail["namedAs"] }) {
  return (
    <dl data-testid="issue-group">
      <dt>Message shape</dt>
      <dd><code>{group.shape === null ? "(no call left in the group)" : group.shape || "(no message)"}</code></dd>
      <dt>Sample message</dt>
      <dd>{group.sample ?? "—"}</dd>
      <dt>Error type / HTTP status</dt>
      <dd>{group.errorType ?? "—"} / {group.httpStatus ?? "—"}</dd>
      <dt>Group</dt>
      <dd>
        <Link href={failureGroupHref(project, group.key)} data-testid="issue-group-link">{group.key} on the Codes page (name this failure) →</Link>
      </dd>
      {namedAs ? (
        <>
          <dt>Named as</dt>
          <dd data-testid="issue-named-as">
            {namedAs.issueId ? <Link href={issueHref(project, namedAs.issueId)}>{namedAs.code} →</Link> : <>{namedAs.code} (no issue for it yet)</>}
          </dd>
        </>
      ) : null}
    </dl>
  );
}
