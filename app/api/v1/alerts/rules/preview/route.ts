import { alertRulePreview } from "@/server/routes/alert-rule-preview";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const POST = alertRulePreview;
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
