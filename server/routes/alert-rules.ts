import { listAlertHistory } from "@/db/alerts/list-history";
import { getAlertReceiver, listAlertReceivers } from "@/db/alerts/receivers";
import { createAlertRule, deleteAlertRule, getAlertRule, listAlertRules, updateAlertRule } from "@/db/alerts/rules";
import { recordAudit } from "@/db/audit/record-audit";
import type { Executor } from "@/db/client";
import { endpoints } from "@/lib/api/endpoints";
import { roleAtLeast } from "@/lib/auth/roles";
import { alertRuleCreateSchema, alertRulePatchSchema, type AlertRulePatch } from "@/lib/contracts/alerts";
import { actorOf, checkProjectRole, requireCaller, requireProjectRole } from "../auth/access";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { guardMutation, readMutation } from "../http/mutation-guard";
import { requestAddress } from "../http/request-address";
import { route } from "../http/route";
import { getStore } from "../store";

export const alertRulesRoute = defineRoute(endpoints.alertRules, async ({ query }) => ({ rules: await listAlertRules(await getStore(), query.project) }));

export const alertHistoryRoute = defineRoute(endpoints.alertHistory, async ({ query }) => listAlertHistory(await getStore(), query));

/** A webhook URL may carry its credential (a Slack hook's path): members and viewers see only where it goes. */
const hideUrlPath = (url: string): string => {
  const u = new URL(url);
  return u.pathname === "/" && u.search === "" ? u.origin : `${u.origin}/…`;
};

/** `GET /api/v1/alerts/receivers`: admins see each webhook URL whole, everyone else its origin. */
export const alertReceiversRoute = defineRoute(endpoints.alertReceivers, async ({ query, role }) => {
  const receivers = await listAlertReceivers(await getStore(), query.project);
  return { receivers: role !== null && roleAtLeast(role, "admin") ? receivers : receivers.map((r) => ({ ...r, url: hideUrlPath(r.url) })) };
});

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

/** `POST /api/v1/alerts/rules` (admin). */
export const alertRuleCreate = route(async (req: Request) => {
  const body = await readMutation(req, alertRuleCreateSchema);
  const { caller } = await requireProjectRole(req, body.project, "admin");
  const store = await getStore();
  await checkReceiver(store, body.project, body.receiverId);
  const rule = await store.transaction(async (tx) => {
    const created = await createAlertRule(tx, body, Date.now());
    await recordAudit(tx, { projectId: body.project, ...actorOf(caller), action: "rule.created", target: created.name, detail: { ruleId: created.id, params: created.params }, address: requestAddress(req) });
    return created;
  });
  return Response.json(rule, { status: 201 });
});

/** Muting and snoozing are what a member may do; any other change needs an admin. */
const onlyMutes = (patch: AlertRulePatch) => Object.keys(patch).every((k) => k === "muted" || k === "snoozedUntil");
const muteAction = (patch: AlertRulePatch) => (patch.muted === true || (patch.muted === undefined && typeof patch.snoozedUntil === "number") ? "alert.muted" : "alert.unmuted");

/** `PATCH /api/v1/alerts/rules/:id`: edit (admin), mute or unmute, snooze until a time or end a snooze (member). */
export const alertRulePatch = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const id = await ruleId(ctx);
  const patch = await readMutation(req, alertRulePatchSchema);
  const caller = await requireCaller(req);
  const store = await getStore();
  const current = await getAlertRule(store, id);
  if (!current) throw new ApiError("not_found", `no alert rule ${id}`);
  await checkProjectRole(caller, current.project, onlyMutes(patch) ? "member" : "admin", `no alert rule ${id}`);
  const updated = await store.transaction(async (tx) => {
    await checkReceiver(tx, current.project, patch.receiverId);
    const rule = await updateAlertRule(tx, id, patch, Date.now());
    if (!rule) return null;
    const action = onlyMutes(patch) ? muteAction(patch) : "rule.updated";
    await recordAudit(tx, { projectId: rule.project, ...actorOf(caller), action, target: rule.name, detail: { ruleId: id, changed: patch }, address: requestAddress(req) });
    return rule;
  });
  if (!updated) throw new ApiError("not_found", `no alert rule ${id}`);
  return Response.json(updated);
});

/** `DELETE /api/v1/alerts/rules/:id` (admin): the rule and its states go; its notifications stay in the history. */
export const alertRuleDelete = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await guardMutation(req);
  const id = await ruleId(ctx);
  const caller = await requireCaller(req);
  const store = await getStore();
  const current = await getAlertRule(store, id);
  if (!current) throw new ApiError("not_found", `no alert rule ${id}`);
  await checkProjectRole(caller, current.project, "admin", `no alert rule ${id}`);
  const deleted = await store.transaction(async (tx) => {
    if (!(await deleteAlertRule(tx, id))) return false;
    await recordAudit(tx, { projectId: current.project, ...actorOf(caller), action: "rule.deleted", target: current.name, detail: { ruleId: id }, address: requestAddress(req) });
    return true;
  });
  if (!deleted) throw new ApiError("not_found", `no alert rule ${id}`);
  return new Response(null, { status: 204 });
});
