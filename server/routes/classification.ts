import type { Store } from "@/db/client";
import { countStaleFailures } from "@/db/classify/reclassify";
import { countStaleErrors } from "@/db/classify/reclassify-errors";
import { listFailureGroups } from "@/db/classify/list-failure-groups";
import { previewRule as previewStoredRule } from "@/db/classify/preview-rule";
import { getClassificationRevision, getClassificationState, listClassificationRules } from "@/db/classify/rules";
import { endpoints } from "@/lib/api/endpoints";
import { BUILTIN_RULES } from "@/lib/classify/builtin-pack";
import { previewRule } from "@/lib/contracts/classification";
import { resolveWindow } from "@/lib/contracts/filters";
import { formatIssues } from "@/lib/contracts";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { reclassifyPending, scheduleReclassify } from "../jobs/reclassify-schedule";
import { getStore } from "../store";

const BUILTIN = BUILTIN_RULES.map((r) => ({ id: r.id, description: r.description, code: r.set.code, errorClass: r.set.errorClass, retryable: r.set.retryable }));

/** `GET /api/v1/classification/rules`: the project's rules in order, the pack (rule by rule) and its switch. */
export const classificationRulesRoute = defineRoute(endpoints.classificationRules, async ({ query }) => {
  const store = await getStore();
  const [state, rules] = await Promise.all([getClassificationState(store, query.project), listClassificationRules(store, query.project)]);
  return { project: query.project, builtinEnabled: state.builtinEnabled, revision: state.revision, rules, builtin: BUILTIN };
});

/**
 * Stored failures and final errors classified at an older revision than the project's; when there
 * are any and no job is asked for on this node, asks for one (after a restart, a change made on
 * another node, or a migration that re-derives group keys) without waiting for it.
 */
async function askIfBehind(store: Store, projectId: string, revision: number): Promise<number> {
  const remaining = (await countStaleFailures(store, projectId, revision)) + (await countStaleErrors(store, projectId, revision));
  if (remaining > 0 && !reclassifyPending(projectId)) scheduleReclassify(projectId);
  return remaining;
}

/** `GET /api/v1/classification/groups`: failures without a code in the window, grouped, heaviest first. */
export const failureGroupsRoute = defineRoute(endpoints.failureGroups, async ({ query, now }) => {
  const { from, to } = resolveWindow({ ...query }, now);
  const store = await getStore();
  await askIfBehind(store, query.project, await getClassificationRevision(store, query.project));
  return { project: query.project, from, to, groups: await listFailureGroups(store, query.project, from, to, query.limit) };
});

/** `GET /api/v1/classification/preview`: what a candidate rule would do to the window's stored failures. */
export const classificationPreviewRoute = defineRoute(endpoints.classificationPreview, async ({ query, now }) => {
  const rule = previewRule(query);
  if (!rule.success) throw new ApiError("bad_request", `invalid rule: ${formatIssues(rule.error.issues)}`, rule.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  const { from, to } = resolveWindow({ ...query }, now);
  return previewStoredRule(await getStore(), query.project, rule.data, query.ruleId, from, to);
});

/** `GET /api/v1/classification/progress`: how far stored failures are re-classified to the current rules (asks for the job when behind). */
export const classificationProgressRoute = defineRoute(endpoints.classificationProgress, async ({ query }) => {
  const store = await getStore();
  const state = await getClassificationState(store, query.project);
  const remaining = await askIfBehind(store, query.project, state.revision);
  return {
    project: query.project, revision: state.revision, appliedRevision: state.appliedRevision, examined: state.examined, changed: state.changed,
    total: Math.max(state.total, state.examined + remaining), remaining, upToDate: remaining === 0,
  };
});
