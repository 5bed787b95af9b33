import { randomBytes } from "node:crypto";
import { noChange } from "@/db/audit/audited-change";
import {
  createClassificationRule,
  deleteClassificationRule,
  findClassificationRule,
  reorderClassificationRules,
  setBuiltinPack,
  updateClassificationRule,
} from "@/db/classify/rules";
import { builtinSwitchSchema, ruleOrderSchema, ruleWriteSchema, type ClassificationRule } from "@/lib/contracts/classification";
import type { Caller } from "../auth/access";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { scheduleReclassify } from "../jobs/reclassify-schedule";
import { getStore } from "../store";

// Every change bumps the project's rules revision; once it is committed, the job re-applies the rules to history.
const reclassifyAfter = (project: string, answer: Response): Response => {
  scheduleReclassify(project);
  return answer;
};

/** Who saved a rule version, as its version row names them. */
const actorLabel = (caller: Caller): string => (caller.kind === "user" ? caller.email : caller.kind);
const ruleOf = async ({ id }: { id: string }) => (/^r_[0-9a-f]{12}$/.test(id) ? findClassificationRule(await getStore(), id) : null);
const noRule = ({ id }: { id: string }) => `no classification rule ${id}`;
const ruleDetail = (r: ClassificationRule) => ({ ruleId: r.id, version: r.version, enabled: r.enabled, match: r.match, set: r.set, overrideEmitter: r.overrideEmitter });

/** `POST /api/v1/classification/rules` (admin): a new rule, last in the order, version 1. */
export const classificationRuleCreate = defineMutation({
  body: ruleWriteSchema,
  access: { project: "body", minimum: "admin" },
  change: async (tx, { body: { project, ...input }, caller, now }) => {
    const rule = await createClassificationRule(tx, project, `r_${randomBytes(6).toString("hex")}`, input, actorLabel(caller), now);
    return { result: rule, audit: { projectId: project, action: "classification.rule_created", target: rule.name, detail: ruleDetail(rule) } };
  },
  respond: (rule, { body }) => reclassifyAfter(body.project, Response.json(rule, { status: 201 })),
});

/** `PUT /api/v1/classification/rules/:id` (admin): the rule's next version (the body's project must be the rule's). */
export const classificationRuleUpdate = defineMutation({
  params: ["id"],
  body: ruleWriteSchema,
  access: { row: ruleOf, notFound: noRule, minimum: "admin" },
  change: async (tx, { body: { project, ...input }, row, params, caller, now }) => {
    if (project !== row.project) throw new ApiError("not_found", noRule(params));
    const rule = await updateClassificationRule(tx, row.project, row.id, input, actorLabel(caller), now);
    if (!rule) throw new ApiError("not_found", noRule(params));
    return { result: rule, audit: { projectId: row.project, action: "classification.rule_updated", target: rule.name, detail: ruleDetail(rule) } };
  },
  respond: (rule, { row }) => reclassifyAfter(row.project, Response.json(rule)),
});

/** `DELETE /api/v1/classification/rules/:id` (admin): calls it classified are classified again without it. */
export const classificationRuleDelete = defineMutation({
  params: ["id"],
  access: { row: ruleOf, notFound: noRule, minimum: "admin" },
  change: async (tx, { row, params, caller, now }) => {
    if (!(await deleteClassificationRule(tx, row.project, row.id, actorLabel(caller), now))) throw new ApiError("not_found", noRule(params));
    return { result: null, audit: { projectId: row.project, action: "classification.rule_deleted", target: row.name, detail: { ruleId: row.id } } };
  },
  respond: (_result, { row }) => reclassifyAfter(row.project, new Response(null, { status: 204 })),
});

/** `POST /api/v1/classification/rules/order` (admin): every live rule's id, in the new order. */
export const classificationRulesReorder = defineMutation({
  body: ruleOrderSchema,
  access: { project: "body", minimum: "admin" },
  change: async (tx, { body: { project, ids }, caller, now }) => {
    const done = await reorderClassificationRules(tx, project, ids, actorLabel(caller), now);
    if (done === "invalid") {
      throw new ApiError("bad_request", "name every rule of the project exactly once", [{ path: "ids", message: "name every rule of the project exactly once" }]);
    }
    const audit = done === "unchanged" ? noChange("the rules already are in this order") : { projectId: project, action: "classification.rules_reordered" as const, target: null, detail: { ids } };
    return { result: { project, ids }, audit };
  },
  respond: (result) => reclassifyAfter(result.project, Response.json(result)),
});

/** `POST /api/v1/classification/builtin` (admin): switch the built-in pack on or off. */
export const classificationBuiltinSwitch = defineMutation({
  body: builtinSwitchSchema,
  access: { project: "body", minimum: "admin" },
  change: async (tx, { body: { project, enabled }, caller, now }) => {
    const switched = await setBuiltinPack(tx, project, enabled, actorLabel(caller), now);
    const audit = switched ? { projectId: project, action: "classification.builtin_switched" as const, target: null, detail: { enabled } } : noChange(`the built-in pack already is ${enabled ? "on" : "off"}`);
    return { result: { project, builtinEnabled: enabled }, audit };
  },
  respond: (result) => reclassifyAfter(result.project, Response.json(result)),
});
