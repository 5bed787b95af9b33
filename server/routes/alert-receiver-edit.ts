import { updateAlertReceiver } from "@/db/alerts/receivers";
import { recordAudit } from "@/db/audit/record-audit";
import { alertReceiverPatchSchema } from "@/lib/contracts/alerts";
import { receiverChange } from "../alerts/receiver-target";
import { receiverForAdmin } from "../alerts/receiver-of-request";
import { actorOf } from "../auth/access";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { readMutation } from "../http/mutation-guard";
import { requestAddress } from "../http/request-address";
import { route } from "../http/route";

/** `PATCH /api/v1/alerts/receivers/:id` (admin): renames a receiver or points it elsewhere; its kind stays. */
export const alertReceiverEdit = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const patch = await readMutation(req, alertReceiverPatchSchema);
  const { caller, store, receiver: current } = await receiverForAdmin(req, ctx);
  const change = receiverChange(current.format, patch, config().alertAllowPrivate);
  const updated = await store.transaction(async (tx) => {
    const next = await updateAlertReceiver(tx, current.id, change);
    if (next) {
      // The routing key is a credential: the audit names what changed, never its value.
      const fields = Object.keys(patch);
      await recordAudit(tx, { projectId: current.project, ...actorOf(caller), action: "receiver.updated", target: next.name, detail: { receiverId: current.id, fields }, address: requestAddress(req) });
    }
    return next;
  });
  if (!updated) throw new ApiError("not_found", `no receiver ${current.id}`);
  return Response.json(updated);
});
