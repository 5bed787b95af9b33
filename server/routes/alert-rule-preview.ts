import { previewAlertRule } from "@/db/alerts/preview-rule";
import { formatIssues } from "@/lib/contracts";
import { alertRulePreviewQuerySchema } from "@/lib/contracts/alerts";
import { checkProjectRole, requireCaller } from "../auth/access";
import { ApiError } from "../http/api-error";
import { readBody } from "../http/read-body";
import { readByPost } from "../http/route";
import { getStore } from "../store";

/**
 * `POST /api/v1/alerts/rules/preview` (member): how often rule params would have fired over the last
 * week. A read whose query is a JSON document (the params); it changes nothing.
 */
export const alertRulePreview = readByPost(async (req: Request) => {
  const caller = await requireCaller(req);
  let json: unknown;
  try {
    json = JSON.parse((await readBody(req, ["application/json"])).toString("utf8"));
  } catch {
    throw new ApiError("invalid_json", "body is not valid JSON");
  }
  const parsed = alertRulePreviewQuerySchema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError("bad_request", `invalid body: ${formatIssues(parsed.error.issues)}`, parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
  }
  await checkProjectRole(caller, parsed.data.project, "member");
  return Response.json(await previewAlertRule(await getStore(), parsed.data.project, parsed.data.params, Date.now()));
});
