import { noChange } from "@/db/audit/audited-change";
import { sendTestNotification } from "../alerts/receiver-test";
import { config } from "../config";
import { defineMutation } from "../http/define-mutation";
import { receiverOf } from "./alert-receivers";

/**
 * `POST /api/v1/alerts/receivers/:id/test` (admin): sends a test notification now and answers how it
 * went. The sending is done before the (empty) transaction: nothing is stored.
 */
export const alertReceiverTest = defineMutation({
  params: ["id"],
  access: { row: receiverOf, notFound: ({ id }) => `no receiver ${id}`, minimum: "admin" },
  prepare: ({ row, now }) => {
    const c = config();
    return sendTestNotification(row, { allowPrivate: c.alertAllowPrivate, timeoutMs: c.alertTimeoutMs, smtp: c.smtp, publicUrl: c.publicUrl, now });
  },
  change: async (_tx, { prepared }) => ({ result: prepared, audit: noChange("a test notification is sent, not stored") }),
});
