import { updateAlertReceiver } from "@/db/alerts/receivers";
import { alertReceiverPatchSchema } from "@/lib/contracts/alerts";
import { receiverChange } from "../alerts/receiver-target";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { receiverOf } from "./alert-receivers";

/** `PATCH /api/v1/alerts/receivers/:id` (admin): renames a receiver or points it elsewhere; its kind stays. */
export const alertReceiverEdit = defineMutation({
  params: ["id"],
  body: alertReceiverPatchSchema,
  access: { row: receiverOf, notFound: ({ id }) => `no receiver ${id}`, minimum: "admin" },
  prepare: ({ row, body }) => receiverChange(row.format, body, config().alertAllowPrivate),
  change: async (tx, { row, body, prepared, params }) => {
    const updated = await updateAlertReceiver(tx, row.id, prepared);
    if (!updated) throw new ApiError("not_found", `no receiver ${params.id}`);
    // The routing key is a credential: the audit names what changed, never its value.
    return { result: updated, audit: { projectId: row.project, action: "receiver.updated", target: updated.name, detail: { receiverId: row.id, fields: Object.keys(body) } } };
  },
});
