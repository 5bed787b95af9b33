import { listAlertHistory } from "@/db/alerts/list-history";
import { getAlertReceiver, listAlertReceivers } from "@/db/alerts/receivers";
import { createAlertRule, deleteAlertRule, getAlertRule, listAlertRules, updateAlertRule } from "@/db/alerts/rules";
import type { Executor } from "@/db/client";
import { endpoints } from "@/lib/api/endpoints";
import { roleAtLeast } from "@/lib/auth/roles";
import { alertRuleCreateSchema, alertRulePatchSchema, type AlertRulePatch } from "@/lib/contracts/alerts";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

export const alertRulesRoute = defineRoute(endpoints.alertRules, async ({ query }) => ({ rules: await listAlertRules(await getStore(), query.project) }));

export const alertHistoryRoute = defineRoute(endpoints.alertHistory, async ({ query }) => listAlertHistory(await getStore(), query));

/** A webhook URL may carry its credential (a Slack hook's path): members and viewers see only where it goes. */
const hideUrlPath = (url: string): string => {
  if (url.startsWith("mailto:")) return "mailto:…";
  const u = new URL(url);
  return u.pathname === "/" && u.search === "" ? u.origin : `${u.origin}/…`;
};

/** `GET /api/v1/alerts/receivers`: admins see each webhook URL whole, everyone else its origin. */
export const alertReceiversRoute = defineRoute(endpoints.alertReceivers, async ({ query, role }) => {
  const receivers = await listAlertReceivers(await getStore(), query.project);
  return { receivers: role !== null && roleAtLeast(role, "admin") ? receivers : receivers.map((r) => ({ ...r, url: hideUrlPath(r.url) })) };
});

/** A rule's id from its path segment; anything but a positive integer is a 404 like an unknown id. */
const ruleOf = async ({ id }: { id: string }) => (/^[1-9]\d{0,15}$/.test(id) ? getAlertRule(await getStore(), Number(id)) : null);
const noRule = ({ id }: { id: string }) => `no alert rule ${id}`;

/** A rule sends only to a receiver of its own project. */
async function checkReceiver(db: Executor, project: string, receiverId: number | null | undefined): Promise<void> {
  if (receiverId === null || receiverId === undefined) return;
  const receiver = await getAlertReceiver(db, receiverId);
  if (!receiver || receiver.project !== project) throw new ApiError("bad_request", `no receiver ${receiverId} in project ${project}`);
}

/** `POST /api/v1/alerts/rules` (admin). */
export const alertRuleCreate = defineMutation({
  body: alertRuleCreateSchema,
  access: { project: "body", minimum: "admin" },
  change: async (tx, { body, now }) => {
    await checkReceiver(tx, body.project, body.receiverId);
    const created = await createAlertRule(tx, body, now);
    return { result: created, audit: { projectId: body.project, action: "rule.created", target: created.name, detail: { ruleId: created.id, params: created.params } } };
  },
  status: 201,
});

/** Muting and snoozing are what a member may do; any other change needs an admin. */
const onlyMutes = (patch: object) => Object.keys(patch).every((k) => k === "muted" || k === "snoozedUntil");
const muteAction = (patch: AlertRulePatch) => (patch.muted === true || (patch.muted === undefined && typeof patch.snoozedUntil === "number") ? "alert.muted" : "alert.unmuted");

/** `PATCH /api/v1/alerts/rules/:id`: edit (admin), mute or unmute, snooze until a time or end a snooze (member). */
export const alertRulePatch = defineMutation({
  params: ["id"],
  body: alertRulePatchSchema,
  // Judged on the body as sent too, before it is checked: a member learns nothing from an edit's 400.
  access: { row: ruleOf, notFound: noRule, minimum: (patch) => (typeof patch === "object" && patch !== null && onlyMutes(patch) ? "member" : "admin") },
  change: async (tx, { body: patch, row, params, now }) => {
    await checkReceiver(tx, row.project, patch.receiverId);
    const rule = await updateAlertRule(tx, row.id, patch, now);
    if (!rule) throw new ApiError("not_found", noRule(params));
    const action = onlyMutes(patch) ? muteAction(patch) : "rule.updated";
    return { result: rule, audit: { projectId: rule.project, action, target: rule.name, detail: { ruleId: rule.id, changed: patch } } };
  },
});

/** `DELETE /api/v1/alerts/rules/:id` (admin): the rule and its states go; its notifications stay in the history. */
export const alertRuleDelete = defineMutation({
  params: ["id"],
  access: { row: ruleOf, notFound: noRule, minimum: "admin" },
  change: async (tx, { row, params }) => {
    if (!(await deleteAlertRule(tx, row.id))) throw new ApiError("not_found", noRule(params));
    return { result: null, audit: { projectId: row.project, action: "rule.deleted", target: row.name, detail: { ruleId: row.id } } };
  },
  respond: () => new Response(null, { status: 204 }),
});
