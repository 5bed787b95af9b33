import { createProjectAs } from "@/db/projects/create-project-as";
import { getProjectDetail } from "@/db/projects/get-project-detail";
import { updateProjectAs } from "@/db/projects/update-project-as";
import { endpoints } from "@/lib/api/endpoints";
import { projectCreateSchema, projectPatchSchema } from "@/lib/contracts/project-admin";
import { requireInstanceOwner, requireProjectRole } from "../auth/access";
import { ApiError } from "../http/api-error";
import { auditActorOf } from "../http/audit-actor-of";
import { defineRoute } from "../http/define-route";
import { readMutation } from "../http/mutation-guard";
import { projectRead } from "../http/project-read";
import { route } from "../http/route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project`: any member reads the project's name, archive state and key counts. */
export const projectDetailRoute = projectRead(
  defineRoute(endpoints.projectDetail, async ({ params }) => {
    const detail = await getProjectDetail(await getStore(), params.project);
    if (!detail) throw new ApiError("not_found", `project ${params.project} not found`);
    return detail;
  }),
  "viewer",
);

/** `POST /api/v1/projects`: an instance owner creates a project (with the default alert rules) and becomes its owner. */
export const projectCreate = route(async (req: Request) => {
  const caller = await requireInstanceOwner(req);
  const body = await readMutation(req, projectCreateSchema);
  const created = await createProjectAs(await getStore(), body, auditActorOf(req, caller), Date.now());
  if (!created) throw new ApiError("conflict", `a project with the id ${body.id} already exists`);
  return Response.json(created, { status: 201 });
});

/** `PATCH /api/v1/projects/:project`: the project's owner renames, archives or restores it. */
export const projectPatch = route(async (req: Request, ctx: { params: Promise<{ project: string }> }) => {
  const { project } = await ctx.params;
  const { caller } = await requireProjectRole(req, project, "owner");
  const patch = await readMutation(req, projectPatchSchema);
  const updated = await updateProjectAs(await getStore(), project, patch, auditActorOf(req, caller), Date.now());
  if (!updated) throw new ApiError("not_found", `project ${project} not found`);
  return Response.json(updated);
});
