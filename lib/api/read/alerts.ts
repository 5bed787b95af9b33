import { alertHistoryQuerySchema, alertHistorySchema, alertReceiversSchema, alertRulesQuerySchema, alertRulesSchema } from "@/lib/contracts/alerts";
import { defineEndpoint } from "../endpoint";

/** Alert rules, history and receivers. */
export const alertsEndpoints = {
  alertRules: defineEndpoint({ id: "alert-rules", path: "/api/v1/alerts/rules", query: alertRulesQuerySchema, response: alertRulesSchema }),
  alertHistory: defineEndpoint({ id: "alert-history", path: "/api/v1/alerts/history", query: alertHistoryQuerySchema, response: alertHistorySchema }),
  alertReceivers: defineEndpoint({ id: "alert-receivers", path: "/api/v1/alerts/receivers", query: alertRulesQuerySchema, response: alertReceiversSchema }),
} as const;
