import { classificationEndpoints } from "@/lib/api/read/classification";
import { classificationRuleSchema, type RuleInput } from "@/lib/contracts/classification";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

const noParams = {} as const;

/** Failure groups of a project's window. */
export const failureGroupsQuery = (project: string, range: string | undefined) =>
  endpointQuery(classificationEndpoints.failureGroups, { params: noParams, search: { project, ...(range ? { range } : {}) } });

/** The preview of a candidate rule, as the flat query the form holds. */
export const classificationPreviewQuery = (search: Record<string, string>) => endpointQuery(classificationEndpoints.classificationPreview, { params: noParams, search });

/** How far history is re-classified; polled while it is not up to date. */
export const classificationProgressQuery = (project: string) => ({
  ...endpointQuery(classificationEndpoints.classificationProgress, { params: noParams, search: { project } }),
  refetchInterval: (q: { state: { data?: { upToDate: boolean; appliedRevision: number; revision: number } } }) =>
    q.state.data && q.state.data.upToDate && q.state.data.appliedRevision === q.state.data.revision ? false : 500,
});

/** The project's rules and the pack. */
export const classificationRulesQuery = (project: string) => endpointQuery(classificationEndpoints.classificationRules, { params: noParams, search: { project } });

/** Saves a new rule. */
export const createClassificationRule = (project: string, rule: RuleInput) => sendJson("POST", "/api/v1/classification/rules", classificationRuleSchema, { project, ...rule });

