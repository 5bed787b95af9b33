import { alertRuleCreate, alertRulesRoute } from "@/server/routes/alert-rules";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = alertRulesRoute.GET;
export const POST = alertRuleCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
