import { classificationRuleDelete, classificationRuleUpdate } from "@/server/routes/classification-rules";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const PUT = classificationRuleUpdate;
export const DELETE = classificationRuleDelete;
export const { GET, POST, PATCH, OPTIONS } = otherMethods("PUT", "DELETE");
