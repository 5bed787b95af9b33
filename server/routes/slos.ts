import { getAlertReceiver } from "@/db/alerts/receivers";
import { createSlo, deleteSlo, getSlo, updateSlo } from "@/db/slos/slos";
import { listSloStatuses, sloDetail } from "@/db/slos/slo-status";
import { endpoints } from "@/lib/api/endpoints";
import { sloCreateSchema, sloPatchSchema } from "@/lib/contracts/slos";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/slos`: every SLO of the project with its budget, burn rates and state now. */
export const slosRoute = defineRoute(endpoints.slos, async ({ query }) => {
  const at = Date.now();
  return { at, slos: await listSloStatuses(await getStore(), query.project, at) };
});

/** `GET /api/v1/slos/detail?id=`: one SLO, its budget hour by hour and the failures that spent it. */
export const sloDetailRoute = defineRoute(endpoints.sloDetail, async ({ query }) => {
  const at = Date.now();
  const detail = await sloDetail(await getStore(), query.project, query.id, at);
  if (!detail) throw new ApiError("not_found", `no SLO ${query.id} in project ${query.project}`);
  return { at, ...detail };
});

/** An SLO's id from its path segment; anything but a positive integer is a 404 like an unknown id. */
const sloOf = async ({ id }: { id: string }) => (/^[1-9]\d{0,15}$/.test(id) ? getSlo(await getStore(), Number(id)) : null);
const noSlo = ({ id }: { id: string }) => `no SLO ${id}`;

/** `POST /api/v1/slos` (admin): the SLO and its burn-rate alert rule, sending to a receiver of the project or nowhere. */
export const sloCreate = defineMutation({
  body: sloCreateSchema,
  access: { project: "body", minimum: "admin" },
  change: async (tx, { body, now }) => {
    if (body.receiverId !== null) {
      const receiver = await getAlertReceiver(tx, body.receiverId);
      if (!receiver || receiver.project !== body.project) throw new ApiError("bad_request", `no receiver ${body.receiverId} in project ${body.project}`);
    }
    const { slo, ruleId } = await createSlo(tx, body, now);
    return {
      result: slo,
      audit: [
        { projectId: body.project, action: "slo.created", target: slo.name, detail: { sloId: slo.id, tools: slo.tools, objective: slo.objective, windowDays: slo.windowDays } },
        { projectId: body.project, action: "rule.created", target: `SLO ${slo.name}: burn rate`, detail: { ruleId, params: { kind: "slo_burn", slo: slo.id } } },
      ],
    };
  },
  status: 201,
});

/** `PATCH /api/v1/slos/:id` (admin). */
export const sloPatch = defineMutation({
  params: ["id"],
  body: sloPatchSchema,
  access: { row: sloOf, notFound: noSlo, minimum: "admin" },
  change: async (tx, { body, row, params, now }) => {
    const slo = await updateSlo(tx, row.id, body, now);
    if (!slo) throw new ApiError("not_found", noSlo(params));
    return { result: slo, audit: { projectId: slo.project, action: "slo.updated", target: slo.name, detail: { sloId: slo.id, changed: body } } };
  },
});

/** `DELETE /api/v1/slos/:id` (admin): the SLO and its burn-rate rules go; their notifications stay in the history. */
export const sloDelete = defineMutation({
  params: ["id"],
  access: { row: sloOf, notFound: noSlo, minimum: "admin" },
  change: async (tx, { row, params }) => {
    if (!(await deleteSlo(tx, row))) throw new ApiError("not_found", noSlo(params));
    return { result: null, audit: { projectId: row.project, action: "slo.deleted", target: row.name, detail: { sloId: row.id } } };
  },
  respond: () => new Response(null, { status: 204 }),
});
