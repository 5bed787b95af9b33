import { classificationRulesRoute } from "@/server/routes/classification";
import { classificationRuleCreate } from "@/server/routes/classification-rules";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = classificationRulesRoute.GET;
export const POST = classificationRuleCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
