import { alertsEndpoints } from "@/lib/api/read/alerts";
import {
  alertReceiverCreatedSchema,
  alertReceiverCreateSchema,
  alertReceiverTestSchema,
  alertReceiverSchema,
  alertRulePreviewSchema,
  type AlertReceiverPatch,
  alertRuleSchema,
  type AlertRuleCreate,
  type AlertRuleParams,
  type AlertRulePatch,
} from "@/lib/contracts/alerts";
import { z } from "zod";
import { endpointQuery } from "./endpoint-query";
import { sendJson } from "./mutate";

export const alertRulesOptions = (project: string) => endpointQuery(alertsEndpoints.alertRules, { params: {}, search: { project } });
export const alertReceiversOptions = (project: string) => endpointQuery(alertsEndpoints.alertReceivers, { params: {}, search: { project } });
export const alertHistoryOptions = (project: string, offset = 0) =>
  endpointQuery(alertsEndpoints.alertHistory, { params: {}, search: { project, offset: offset === 0 ? undefined : String(offset) } });

export const createAlertRule = (rule: AlertRuleCreate) => sendJson("POST", "/api/v1/alerts/rules", alertRuleSchema, rule);
export const patchAlertRule = (id: number, patch: AlertRulePatch) => sendJson("PATCH", `/api/v1/alerts/rules/${id}`, alertRuleSchema, patch);

export const createAlertReceiver = (receiver: z.input<typeof alertReceiverCreateSchema>) => sendJson("POST", "/api/v1/alerts/receivers", alertReceiverCreatedSchema, receiver);
export const testAlertReceiver = (id: number) => sendJson("POST", `/api/v1/alerts/receivers/${id}/test`, alertReceiverTestSchema, {});
export const patchAlertReceiver = (id: number, patch: AlertReceiverPatch) => sendJson("PATCH", `/api/v1/alerts/receivers/${id}`, alertReceiverSchema, patch);
export const deleteAlertReceiver = (id: number) => sendJson("DELETE", `/api/v1/alerts/receivers/${id}`, z.undefined());

/** DELETE answers 204 without a body. */
export const deleteAlertRule = (id: number) => sendJson("DELETE", `/api/v1/alerts/rules/${id}`, z.undefined());

/** How often rules with these params would have fired over the last week (a POST that writes nothing: cached like a read). */
export const alertRulePreviewOptions = (project: string, params: AlertRuleParams) => ({
  queryKey: ["alert-rule-preview", project, params] as const,
  queryFn: () => sendJson("POST", "/api/v1/alerts/rules/preview", alertRulePreviewSchema, { project, params }),
  staleTime: 60_000,
});
