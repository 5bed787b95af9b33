import { classificationRulesReorder } from "@/server/routes/classification-rules";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const POST = classificationRulesReorder;
export const { GET, PUT, DELETE, PATCH, OPTIONS } = otherMethods("POST");
