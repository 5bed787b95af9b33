import { previewAlertRule } from "@/db/alerts/preview-rule";
import { alertRulePreviewQuerySchema } from "@/lib/contracts/alerts";
import { requireProjectRole } from "../auth/access";
import { readMutation } from "../http/mutation-guard";
import { route } from "../http/route";
import { getStore } from "../store";

/**
 * `POST /api/v1/alerts/rules/preview` (member): how often rule params would have fired over the last
 * week. A POST because the params are a JSON document; it writes nothing.
 */
export const alertRulePreview = route(async (req: Request) => {
  const body = await readMutation(req, alertRulePreviewQuerySchema);
  await requireProjectRole(req, body.project, "member");
  return Response.json(await previewAlertRule(await getStore(), body.project, body.params, Date.now()));
});
