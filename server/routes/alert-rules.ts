import { listAlertHistory } from "@/db/alerts/list-history";
import { getAlertReceiver, listAlertReceivers } from "@/db/alerts/receivers";
import { createAlertRule, deleteAlertRule, getAlertRule, listAlertRules, updateAlertRule } from "@/db/alerts/rules";
import type { Executor } from "@/db/client";
import { projectExists } from "@/db/keys";
import { endpoints } from "@/lib/api/endpoints";
import { alertRuleCreateSchema, alertRulePatchSchema } from "@/lib/contracts/alerts";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { checkSameOrigin, readMutation } from "../http/mutation-guard";
import { route } from "../http/route";
import { getStore } from "../store";

export const alertRulesRoute = defineRoute(endpoints.alertRules, async ({ query }) => ({ rules: await listAlertRules(await getStore(), query.project) }));

export const alertHistoryRoute = defineRoute(endpoints.alertHistory, async ({ query }) => listAlertHistory(await getStore(), query));

export const alertReceiversRoute = defineRoute(endpoints.alertReceivers, async ({ query }) => ({ receivers: await listAlertReceivers(await getStore(), query.project) }));

/** A rule's id from its path segment; anything but a positive integer is a 404 like an unknown id. */
async function ruleId(ctx: { params: Promise<{ id: string }> }): Promise<number> {
  const raw = (await ctx.params).id;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new ApiError("not_found", `no alert rule ${raw}`);
  return Number(raw);
}

/** A rule sends only to a receiver of its own project. */
async function checkReceiver(db: Executor, project: string, receiverId: number | null | undefined): Promise<void> {
  if (receiverId === null || receiverId === undefined) return;
  const receiver = await getAlertReceiver(db, receiverId);
  if (!receiver || receiver.project !== project) throw new ApiError("bad_request", `no receiver ${receiverId} in project ${project}`);
}

/** `POST /api/v1/alerts/rules`. */
export const alertRuleCreate = route(async (req: Request) => {
  const body = await readMutation(req, alertRuleCreateSchema);
  const store = await getStore();
  if (!(await projectExists(store, body.project))) throw new ApiError("not_found", `no project ${body.project}`);
  await checkReceiver(store, body.project, body.receiverId);
  return Response.json(await createAlertRule(store, body, Date.now()), { status: 201 });
});

/** `PATCH /api/v1/alerts/rules/:id`: edit, mute or unmute, snooze until a time or end a snooze. */
export const alertRulePatch = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = await ruleId(ctx);
  const patch = await readMutation(req, alertRulePatchSchema);
  const store = await getStore();
  const updated = await store.transaction(async (tx) => {
    const current = await getAlertRule(tx, id);
    if (!current) return null;
    await checkReceiver(tx, current.project, patch.receiverId);
    return updateAlertRule(tx, id, patch, Date.now());
  });
  if (!updated) throw new ApiError("not_found", `no alert rule ${id}`);
  return Response.json(updated);
});

/** `DELETE /api/v1/alerts/rules/:id`: the rule and its states go; its notifications stay in the history. */
export const alertRuleDelete = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  checkSameOrigin(req);
  const id = await ruleId(ctx);
  const store = await getStore();
  if (!(await store.transaction((tx) => deleteAlertRule(tx, id)))) throw new ApiError("not_found", `no alert rule ${id}`);
  return new Response(null, { status: 204 });
});
