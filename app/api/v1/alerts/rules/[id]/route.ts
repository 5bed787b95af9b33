import { alertRuleDelete, alertRulePatch } from "@/server/routes/alert-rules";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const PATCH = alertRulePatch;
export const DELETE = alertRuleDelete;
export const { GET, POST, PUT, OPTIONS } = otherMethods("PATCH", "DELETE");
