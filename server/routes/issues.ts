import { findProjectMember } from "@/db/auth/memberships";
import { countIssuesByState } from "@/db/issues/count-issues";
import { getIssueDetail, getIssueRow, listIssues } from "@/db/issues/list-issues";
import { addIssueNote, assignIssue, triageIssue } from "@/db/issues/triage-issue";
import { endpoints } from "@/lib/api/endpoints";
import { issueNoteSchema, issuePatchSchema } from "@/lib/contracts/issues";
import { z } from "zod";
import { actorOf } from "../auth/access";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

const issueIdSchema = z.string().min(1).max(40);

/** `GET /api/v1/issues`: the project's issues ranked by impact, with the counts per state. */
export const issuesRoute = defineRoute(endpoints.issues, async ({ query }) => listIssues(await getStore(), query, Date.now()));

/** `GET /api/v1/issues/counts`: the counts per state alone (the navigation's badge). */
export const issueCountsRoute = defineRoute(endpoints.issueCounts, async ({ query, now }) => ({ counts: await countIssuesByState(await getStore(), query.project, now) }));

/** `GET /api/v1/issues/:id`: one issue with its releases and history. */
export const issueDetailRoute = defineRoute(
  endpoints.issueDetail,
  async ({ query, params }) => {
    const detail = await getIssueDetail(await getStore(), query.project, params.id, Date.now());
    if (!detail) throw new ApiError("not_found", `no issue ${params.id} in project ${query.project}`);
    return detail;
  },
  { params: { id: issueIdSchema } },
);

const issueOf = async ({ id }: { id: string }) => (id.length <= 40 ? getIssueRow(await getStore(), id) : null);
const noIssue = ({ id }: { id: string }) => `no issue ${id}`;

/** `PATCH /api/v1/issues/:id` (member): resolve, ignore or reopen, and/or assign to a project member. */
export const issuePatch = defineMutation({
  params: ["id"],
  body: issuePatchSchema,
  access: { row: issueOf, notFound: noIssue, minimum: "member" },
  change: async (tx, { body, row, caller, now }) => {
    const actor = actorOf(caller);
    const target = `${row.tool} ${row.code}`;
    const audit = [];
    if (body.assignee !== undefined) {
      const member = body.assignee === null ? null : await findProjectMember(tx, row.project, body.assignee);
      if (body.assignee !== null && member === null) throw new ApiError("bad_request", `${body.assignee} is not a member of project ${row.project}`);
      const assignee = member === null ? null : { userId: member.userId, name: member.name || member.email };
      await assignIssue(tx, row, assignee, actor, now);
      audit.push({ projectId: row.project, action: "issue.assigned" as const, target, detail: { issueId: row.id, assignee: assignee?.userId ?? null } });
    }
    if (body.triage !== undefined) {
      const { state, detail } = await triageIssue(tx, row, body.triage, actor, now);
      audit.push({ projectId: row.project, action: "issue.state_changed" as const, target, detail: { issueId: row.id, from: row.state, to: state, change: detail } });
    }
    const fresh = await getIssueDetail(tx, row.project, row.id, now);
    return { result: fresh, audit: audit as [(typeof audit)[number], ...typeof audit] };
  },
});

/** `POST /api/v1/issues/:id/notes` (member): a short note in the issue's history. */
export const issueNoteCreate = defineMutation({
  params: ["id"],
  body: issueNoteSchema,
  access: { row: issueOf, notFound: noIssue, minimum: "member" },
  change: async (tx, { body, row, caller, now }) => {
    await addIssueNote(tx, row, body.text, actorOf(caller), now);
    return { result: await getIssueDetail(tx, row.project, row.id, now), audit: { projectId: row.project, action: "issue.noted", target: `${row.tool} ${row.code}`, detail: { issueId: row.id } } };
  },
  status: 201,
});
