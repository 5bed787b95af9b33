import { endpoints } from "@/lib/api/endpoints";
import { alertReceiverCreatedSchema, alertRuleSchema, type AlertRuleCreate, type AlertRulePatch } from "@/lib/contracts/alerts";
import { endpointQuery } from "./endpoint-query";
import { fetchJson } from "./fetch-json";

export const alertRulesOptions = (project: string) => endpointQuery(endpoints.alertRules, { params: {}, search: { project } });
export const alertReceiversOptions = (project: string) => endpointQuery(endpoints.alertReceivers, { params: {}, search: { project } });
export const alertHistoryOptions = (project: string, offset = 0) =>
  endpointQuery(endpoints.alertHistory, { params: {}, search: { project, offset: offset === 0 ? undefined : String(offset) } });

const send = (method: string, body: unknown): RequestInit => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

export const createAlertRule = (rule: AlertRuleCreate) => fetchJson("/api/v1/alerts/rules", alertRuleSchema, send("POST", rule));
export const patchAlertRule = (id: number, patch: AlertRulePatch) => fetchJson(`/api/v1/alerts/rules/${id}`, alertRuleSchema, send("PATCH", patch));

export const createAlertReceiver = (receiver: { project: string; name: string; url: string; format: "json" | "slack" }) =>
  fetchJson("/api/v1/alerts/receivers", alertReceiverCreatedSchema, send("POST", receiver));

/** DELETE answers 204 without a body. */
export async function deleteAlertRule(id: number): Promise<void> {
  const res = await fetch(`/api/v1/alerts/rules/${id}`, { method: "DELETE" });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? `delete failed (${res.status})`);
  }
}
