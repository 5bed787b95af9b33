import { issuesEndpoints } from "@/lib/api/read/issues";
import { issueDetailSchema, type IssuePatch } from "@/lib/contracts/issues";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

/** The project's issues, ranked by impact; empty filters are left out of the key. */
export const issuesOptions = (project: string, filters: { state?: string; tool?: string; code?: string; assignee?: string } = {}) =>
  endpointQuery(issuesEndpoints.issues, { params: {}, search: { project, state: filters.state || undefined, tool: filters.tool || undefined, code: filters.code || undefined, assignee: filters.assignee || undefined } });

/** One issue with its releases and history. */
export const issueDetailOptions = (project: string, id: string) => endpointQuery(issuesEndpoints.issueDetail, { params: { id }, search: { project } });

export const patchIssue = (id: string, patch: IssuePatch) => sendJson("PATCH", `/api/v1/issues/${encodeURIComponent(id)}`, issueDetailSchema, patch);
export const addIssueNote = (id: string, text: string) => sendJson("POST", `/api/v1/issues/${encodeURIComponent(id)}/notes`, issueDetailSchema, { text });
