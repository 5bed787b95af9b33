import { alertHistoryQuerySchema, alertHistorySchema, alertReceiversSchema, alertRulesQuerySchema, alertRulesSchema } from "@/lib/contracts/alerts";
import { authProvidersSchema } from "@/lib/contracts/auth-providers";
import {
  classificationPreviewQuerySchema,
  classificationPreviewSchema,
  classificationProgressQuerySchema,
  classificationProgressSchema,
  classificationRulesQuerySchema,
  classificationRulesSchema,
  failureGroupsQuerySchema,
  failureGroupsSchema,
} from "@/lib/contracts/classification";
import { codeDetailQuerySchema, codeDetailSchema, codesQuerySchema, codesSchema } from "@/lib/contracts/codes";
import { conformanceQuerySchema, conformanceSchema } from "@/lib/contracts/conformance";
import { experimentDetailSchema, experimentsAnswerSchema } from "@/lib/contracts/experiments";
import {
  codeReleaseHistoryQuerySchema,
  codeReleaseHistorySchema,
  driftFindingsQuerySchema,
  driftFindingsResponseSchema,
  driftSummaryQuerySchema,
  driftSummaryResponseSchema,
} from "@/lib/contracts/drift";
import { overviewQuerySchema, overviewSchema } from "@/lib/contracts/overview";
import { auditLogQuerySchema, auditLogSchema } from "@/lib/contracts/audit-log";
import { issueDetailQuerySchema, issueDetailSchema, issuesQuerySchema, issuesSchema } from "@/lib/contracts/issues";
import { keysSchema } from "@/lib/contracts/keys";
import { releaseHealthQuerySchema, releaseHealthSchema, releasesQuerySchema, releasesSchema } from "@/lib/contracts/releases";
import { projectDetailSchema } from "@/lib/contracts/project-admin";
import { projectsSchema, setupQuerySchema, setupSchema } from "@/lib/contracts/projects";
import { listRunsQuerySchema, runFacetsQuerySchema, runFacetsSchema, runListResponseSchema, runTimelineQuerySchema, runTimelineSchema } from "@/lib/contracts/runs";
import { savedViewsQuerySchema, savedViewsSchema } from "@/lib/contracts/saved-views";
import { searchQuerySchema, searchSchema } from "@/lib/contracts/search";
import { textSearchQuerySchema, textSearchSchema } from "@/lib/contracts/text-search";
import { toldAnswerSchema, toldQuerySchema } from "@/lib/contracts/told";
import { traceLinkAnswerSchema } from "@/lib/contracts/trace-links";
import { toolDetailQuerySchema, toolDetailSchema, toolsQuerySchema, toolsSchema } from "@/lib/contracts/tools";
import { z } from "zod";
import { defineEndpoint } from "./endpoint";

const noQuery = z.object({});

/** Every read endpoint of the dashboard API (docs/architecture.md lists them with their pages). */
export const endpoints = {
  overview: defineEndpoint({ id: "overview", path: "/api/v1/overview", query: overviewQuerySchema, response: overviewSchema }),
  tools: defineEndpoint({ id: "tools", path: "/api/v1/tools", query: toolsQuerySchema, response: toolsSchema }),
  // The tool and the code travel in the query string: their names may hold any character, '/' too.
  toolDetail: defineEndpoint({ id: "tool-detail", path: "/api/v1/tools/detail", query: toolDetailQuerySchema, response: toolDetailSchema }),
  codes: defineEndpoint({ id: "codes", path: "/api/v1/codes", query: codesQuerySchema, response: codesSchema }),
  codeDetail: defineEndpoint({ id: "code-detail", path: "/api/v1/codes/detail", query: codeDetailQuerySchema, response: codeDetailSchema }),
  projects: defineEndpoint({ id: "projects", path: "/api/v1/projects", query: z.object({}), response: projectsSchema }),
  projectDetail: defineEndpoint<typeof noQuery, typeof projectDetailSchema, "project">({
    id: "project-detail",
    path: "/api/v1/projects/:project",
    query: noQuery,
    response: projectDetailSchema,
  }),
  projectKeys: defineEndpoint<typeof noQuery, typeof keysSchema, "project">({ id: "project-keys", path: "/api/v1/projects/:project/keys", query: noQuery, response: keysSchema }),
  auditLog: defineEndpoint<typeof auditLogQuerySchema, typeof auditLogSchema, "project">({
    id: "audit-log",
    path: "/api/v1/projects/:project/audit",
    query: auditLogQuerySchema,
    response: auditLogSchema,
  }),
  // The project's link to its tracing tool (docs/trace-links.md): every member reads it, to render "Open in …".
  traceLink: defineEndpoint<typeof noQuery, typeof traceLinkAnswerSchema, "project">({
    id: "trace-link",
    path: "/api/v1/projects/:project/trace-link",
    query: noQuery,
    response: traceLinkAnswerSchema,
  }),
  setup: defineEndpoint({ id: "setup", path: "/api/v1/setup", query: setupQuerySchema, response: setupSchema }),
  conformance: defineEndpoint({ id: "conformance", path: "/api/v1/conformance", query: conformanceQuerySchema, response: conformanceSchema }),
  driftFindings: defineEndpoint({ id: "drift-findings", path: "/api/v1/drift", query: driftFindingsQuerySchema, response: driftFindingsResponseSchema }),
  driftSummary: defineEndpoint({ id: "drift-summary", path: "/api/v1/drift/summary", query: driftSummaryQuerySchema, response: driftSummaryResponseSchema }),
  codeReleaseHistory: defineEndpoint<typeof codeReleaseHistoryQuerySchema, typeof codeReleaseHistorySchema, "code">({
    id: "code-release-history",
    path: "/api/v1/drift/codes/:code/history",
    query: codeReleaseHistoryQuerySchema,
    response: codeReleaseHistorySchema,
  }),
  runs: defineEndpoint({ id: "runs", path: "/api/v1/runs", query: listRunsQuerySchema, response: runListResponseSchema }),
  // Not under /runs/: a run may be called "facets".
  runFacets: defineEndpoint({ id: "run-facets", path: "/api/v1/run-facets", query: runFacetsQuerySchema, response: runFacetsSchema }),
  runTimeline: defineEndpoint<typeof runTimelineQuerySchema, typeof runTimelineSchema, "runId">({
    id: "run-timeline",
    path: "/api/v1/runs/:runId",
    query: runTimelineQuerySchema,
    response: runTimelineSchema,
  }),
  // What models did after being told errors; the code and tool travel in the query string.
  told: defineEndpoint({ id: "told", path: "/api/v1/told", query: toldQuerySchema, response: toldAnswerSchema }),
  search: defineEndpoint({ id: "search", path: "/api/v1/search", query: searchQuerySchema, response: searchSchema }),
  // Full-text search over error messages and told texts (docs/search.md).
  textSearch: defineEndpoint({ id: "text-search", path: "/api/v1/search/text", query: textSearchQuerySchema, response: textSearchSchema }),
  alertRules: defineEndpoint({ id: "alert-rules", path: "/api/v1/alerts/rules", query: alertRulesQuerySchema, response: alertRulesSchema }),
  alertHistory: defineEndpoint({ id: "alert-history", path: "/api/v1/alerts/history", query: alertHistoryQuerySchema, response: alertHistorySchema }),
  alertReceivers: defineEndpoint({ id: "alert-receivers", path: "/api/v1/alerts/receivers", query: alertRulesQuerySchema, response: alertReceiversSchema }),
  // Classification (docs/classification.md): rules, the preview of a candidate rule, groups of failures without a code, re-classification progress.
  classificationRules: defineEndpoint({ id: "classification-rules", path: "/api/v1/classification/rules", query: classificationRulesQuerySchema, response: classificationRulesSchema }),
  classificationPreview: defineEndpoint({ id: "classification-preview", path: "/api/v1/classification/preview", query: classificationPreviewQuerySchema, response: classificationPreviewSchema }),
  classificationProgress: defineEndpoint({ id: "classification-progress", path: "/api/v1/classification/progress", query: classificationProgressQuerySchema, response: classificationProgressSchema }),
  failureGroups: defineEndpoint({ id: "failure-groups", path: "/api/v1/classification/groups", query: failureGroupsQuerySchema, response: failureGroupsSchema }),
  issues: defineEndpoint({ id: "issues", path: "/api/v1/issues", query: issuesQuerySchema, response: issuesSchema }),
  issueDetail: defineEndpoint<typeof issueDetailQuerySchema, typeof issueDetailSchema, "id">({
    id: "issue-detail",
    path: "/api/v1/issues/:id",
    query: issueDetailQuerySchema,
    response: issueDetailSchema,
  }),
  releases: defineEndpoint({ id: "releases", path: "/api/v1/releases", query: releasesQuerySchema, response: releasesSchema }),
  releaseHealth: defineEndpoint<typeof releaseHealthQuerySchema, typeof releaseHealthSchema, "release">({
    id: "release-health",
    path: "/api/v1/releases/:release",
    query: releaseHealthQuerySchema,
    response: releaseHealthSchema,
  }),
  // The caller's saved views of one page and those shared with the project (docs/saved-views.md).
  savedViews: defineEndpoint({ id: "saved-views", path: "/api/v1/saved-views", query: savedViewsQuerySchema, response: savedViewsSchema }),
  // Wording experiments (docs/experiments.md); the runtime's wording set is a read-key route of its own (/api/v1/wordings).
  experiments: defineEndpoint<typeof noQuery, typeof experimentsAnswerSchema, "project">({
    id: "experiments",
    path: "/api/v1/projects/:project/experiments",
    query: noQuery,
    response: experimentsAnswerSchema,
  }),
  experimentDetail: defineEndpoint<typeof noQuery, typeof experimentDetailSchema, "project" | "id">({
    id: "experiment-detail",
    path: "/api/v1/projects/:project/experiments/:id",
    query: noQuery,
    response: experimentDetailSchema,
  }),
  authProviders: defineEndpoint({ id: "auth-providers", path: "/api/v1/auth/providers", query: z.object({}), response: authProvidersSchema }),
} as const;
