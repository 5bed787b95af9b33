import { createAlertReceiver, deleteAlertReceiver, getAlertReceiver } from "@/db/alerts/receivers";
import { alertReceiverCreateSchema } from "@/lib/contracts/alerts";
import { receiverTarget } from "../alerts/receiver-target";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { getStore } from "../store";

/** A receiver's id from its path segment; anything but a positive integer is a 404 like an unknown id. */
export const receiverOf = async ({ id }: { id: string }) => (/^[1-9]\d{0,15}$/.test(id) ? getAlertReceiver(await getStore(), Number(id)) : null);

/** `POST /api/v1/alerts/receivers` (admin): a webhook's answer holds its signing secret, shown this once. */
export const alertReceiverCreate = defineMutation({
  body: alertReceiverCreateSchema,
  access: { project: "body", minimum: "admin" },
  prepare: ({ body }) => receiverTarget(body, { allowPrivate: config().alertAllowPrivate, smtp: config().smtp }),
  change: async (tx, { body, prepared, now }) => {
    const created = await createAlertReceiver(tx, { project: body.project, name: body.name, url: prepared.url, format: body.format, secret: prepared.secret }, now);
    return {
      result: { ...created, secret: prepared.shownSecret },
      audit: { projectId: body.project, action: "receiver.created", target: created.name, detail: { receiverId: created.id, url: created.url, format: created.format } },
    };
  },
  status: 201,
});

/** `DELETE /api/v1/alerts/receivers/:id` (admin). */
export const alertReceiverDelete = defineMutation({
  params: ["id"],
  access: { row: receiverOf, notFound: ({ id }) => `no receiver ${id}`, minimum: "admin" },
  change: async (tx, { row, params }) => {
    if (!(await deleteAlertReceiver(tx, row.id))) throw new ApiError("not_found", `no receiver ${params.id}`);
    return { result: null, audit: { projectId: row.project, action: "receiver.deleted", target: row.name, detail: { receiverId: row.id } } };
  },
  respond: () => new Response(null, { status: 204 }),
});
