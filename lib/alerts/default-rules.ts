import type { AlertRuleParams } from "@/lib/contracts/alerts";

/** The rules every new project starts with (editable and deletable like any other). */
export const DEFAULT_ALERT_RULES: readonly { name: string; params: AlertRuleParams }[] = [
  { name: "New error code for a tool", params: { kind: "new_code" } },
  { name: "Critical drift finding", params: { kind: "drift", minSeverity: "critical" } },
];
