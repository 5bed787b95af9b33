import { randomBytes } from "node:crypto";
import { createAlertReceiver, deleteAlertReceiver, getAlertReceiver } from "@/db/alerts/receivers";
import { recordAudit } from "@/db/audit/record-audit";
import { checkWebhookUrl } from "@/lib/alerts/webhook-url";
import { alertReceiverCreateSchema } from "@/lib/contracts/alerts";
import { actorOf, checkProjectRole, requireCaller, requireProjectRole } from "../auth/access";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { guardMutation, readMutation } from "../http/mutation-guard";
import { requestAddress } from "../http/request-address";
import { route } from "../http/route";
import { getStore } from "../store";

/** `POST /api/v1/alerts/receivers` (admin): the answer holds the signing secret, shown this once. */
export const alertReceiverCreate = route(async (req: Request) => {
  const body = await readMutation(req, alertReceiverCreateSchema);
  const { caller } = await requireProjectRole(req, body.project, "admin");
  const checked = checkWebhookUrl(body.url, config().alertAllowPrivate);
  if (!checked.ok) throw new ApiError("bad_request", `invalid url: ${checked.reason}`, [{ path: "url", message: checked.reason }]);
  const store = await getStore();
  const secret = body.secret ?? randomBytes(24).toString("base64url");
  const receiver = await store.transaction(async (tx) => {
    const created = await createAlertReceiver(tx, { project: body.project, name: body.name, url: checked.url.href, format: body.format, secret }, Date.now());
    await recordAudit(tx, { projectId: body.project, ...actorOf(caller), action: "receiver.created", target: created.name, detail: { receiverId: created.id, url: created.url, format: created.format }, address: requestAddress(req) });
    return created;
  });
  return Response.json({ ...receiver, secret }, { status: 201 });
});

/** `DELETE /api/v1/alerts/receivers/:id` (admin). */
export const alertReceiverDelete = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await guardMutation(req);
  const raw = (await ctx.params).id;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new ApiError("not_found", `no receiver ${raw}`);
  const caller = await requireCaller(req);
  const store = await getStore();
  const current = await getAlertReceiver(store, Number(raw));
  if (!current) throw new ApiError("not_found", `no receiver ${raw}`);
  await checkProjectRole(caller, current.project, "admin", `no receiver ${raw}`);
  const deleted = await store.transaction(async (tx) => {
    if (!(await deleteAlertReceiver(tx, current.id))) return false;
    await recordAudit(tx, { projectId: current.project, ...actorOf(caller), action: "receiver.deleted", target: current.name, detail: { receiverId: current.id }, address: requestAddress(req) });
    return true;
  });
  if (!deleted) throw new ApiError("not_found", `no receiver ${raw}`);
  return new Response(null, { status: 204 });
});
