import { receiverForAdmin } from "../alerts/receiver-of-request";
import { sendTestNotification } from "../alerts/receiver-test";
import { config } from "../config";
import { guardMutation } from "../http/mutation-guard";
import { route } from "../http/route";

/** `POST /api/v1/alerts/receivers/:id/test` (admin): sends a test notification now and answers how it went. */
export const alertReceiverTest = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await guardMutation(req);
  const { receiver } = await receiverForAdmin(req, ctx);
  const c = config();
  return Response.json(await sendTestNotification(receiver, { allowPrivate: c.alertAllowPrivate, timeoutMs: c.alertTimeoutMs, smtp: c.smtp, publicUrl: c.publicUrl, now: Date.now() }));
});
