import { randomBytes } from "node:crypto";
import { createAlertReceiver, deleteAlertReceiver } from "@/db/alerts/receivers";
import { projectExists } from "@/db/keys";
import { checkWebhookUrl } from "@/lib/alerts/webhook-url";
import { alertReceiverCreateSchema } from "@/lib/contracts/alerts";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { checkSameOrigin, readMutation } from "../http/mutation-guard";
import { route } from "../http/route";
import { getStore } from "../store";

/** `POST /api/v1/alerts/receivers`: the answer holds the signing secret, shown this once. */
export const alertReceiverCreate = route(async (req: Request) => {
  const body = await readMutation(req, alertReceiverCreateSchema);
  const checked = checkWebhookUrl(body.url, config().alertAllowPrivate);
  if (!checked.ok) throw new ApiError("bad_request", `invalid url: ${checked.reason}`, [{ path: "url", message: checked.reason }]);
  const store = await getStore();
  if (!(await projectExists(store, body.project))) throw new ApiError("not_found", `no project ${body.project}`);
  const secret = body.secret ?? randomBytes(24).toString("base64url");
  const receiver = await createAlertReceiver(store, { project: body.project, name: body.name, url: checked.url.href, format: body.format, secret }, Date.now());
  return Response.json({ ...receiver, secret }, { status: 201 });
});

/** `DELETE /api/v1/alerts/receivers/:id`. */
export const alertReceiverDelete = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  checkSameOrigin(req);
  const raw = (await ctx.params).id;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new ApiError("not_found", `no receiver ${raw}`);
  const store = await getStore();
  if (!(await store.transaction((tx) => deleteAlertReceiver(tx, Number(raw))))) throw new ApiError("not_found", `no receiver ${raw}`);
  return new Response(null, { status: 204 });
});
