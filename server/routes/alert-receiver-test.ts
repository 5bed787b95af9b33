import { getAlertReceiver } from "@/db/alerts/receivers";
import { checkProjectRole, requireCaller } from "../auth/access";
import { sendTestNotification } from "../alerts/receiver-test";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { guardMutation } from "../http/mutation-guard";
import { route } from "../http/route";
import { getStore } from "../store";

/** `POST /api/v1/alerts/receivers/:id/test` (admin): sends a test notification now and answers how it went. */
export const alertReceiverTest = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await guardMutation(req);
  const raw = (await ctx.params).id;
  if (!/^[1-9]\d{0,15}$/.test(raw)) throw new ApiError("not_found", `no receiver ${raw}`);
  const caller = await requireCaller(req);
  const receiver = await getAlertReceiver(await getStore(), Number(raw));
  if (!receiver) throw new ApiError("not_found", `no receiver ${raw}`);
  await checkProjectRole(caller, receiver.project, "admin", `no receiver ${raw}`);
  const c = config();
  return Response.json(await sendTestNotification(receiver, { allowPrivate: c.alertAllowPrivate, timeoutMs: c.alertTimeoutMs, smtp: c.smtp, publicUrl: c.publicUrl, now: Date.now() }));
});
