import { getTraceLink, removeTraceLinkChange, setTraceLinkChange } from "@/db/trace-links/trace-links";
import { endpoints } from "@/lib/api/endpoints";
import { traceLinkInputSchema } from "@/lib/contracts/trace-links";
import { actorOf } from "../auth/access";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/trace-link`: any member reads the link, to render "Open in …". */
export const traceLinkRoute = defineRoute(endpoints.traceLink, async ({ params }) => ({ project: params.project, link: await getTraceLink(await getStore(), params.project) }));

/** `PUT /api/v1/projects/:project/trace-link` (admin): sets the link from a preset or a custom template. */
export const traceLinkPut = defineMutation({
  params: ["project"],
  body: traceLinkInputSchema,
  access: { project: "path", minimum: "admin" },
  change: async (tx, { params: { project }, body, caller, now }) => {
    const changed = await setTraceLinkChange(tx, project, body, actorOf(caller).actorUserId, now);
    return { result: { project, link: changed.result }, audit: changed.audit };
  },
});

/** `DELETE /api/v1/projects/:project/trace-link` (admin): run and attempt pages stop offering the link. */
export const traceLinkDelete = defineMutation({
  params: ["project"],
  access: { project: "path", minimum: "admin" },
  change: async (tx, { params: { project } }) => {
    const removed = await removeTraceLinkChange(tx, project);
    return { result: { project, link: null }, audit: removed.audit };
  },
});
