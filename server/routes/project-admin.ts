import { createProjectChange } from "@/db/projects/create-project-as";
import { getProjectDetail } from "@/db/projects/get-project-detail";
import { updateProjectChange } from "@/db/projects/update-project-as";
import { endpoints } from "@/lib/api/endpoints";
import { projectCreateSchema, projectPatchSchema } from "@/lib/contracts/project-admin";
import { actorOf } from "../auth/access";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project`: any member reads the project's name, archive state and key counts. */
export const projectDetailRoute = defineRoute(endpoints.projectDetail, async ({ params }) => {
  const detail = await getProjectDetail(await getStore(), params.project);
  if (!detail) throw new ApiError("not_found", `project ${params.project} not found`);
  return detail;
});

/** `POST /api/v1/projects`: an instance owner creates a project (with the default alert rules) and becomes its owner. */
export const projectCreate = defineMutation({
  body: projectCreateSchema,
  access: "instance-owner",
  change: async (tx, { body, caller, now }) => {
    const created = await createProjectChange(tx, body, actorOf(caller).actorUserId, now);
    if (!created.result) throw new ApiError("conflict", `a project with the id ${body.id} already exists`);
    return created;
  },
  status: 201,
});

/** `PATCH /api/v1/projects/:project`: the project's owner renames, archives or restores it. */
export const projectPatch = defineMutation({
  params: ["project"],
  body: projectPatchSchema,
  access: { project: "path", minimum: "owner" },
  change: async (tx, { params: { project }, body, now }) => {
    const updated = await updateProjectChange(tx, project, body, now);
    if (!updated.result) throw new ApiError("not_found", `project ${project} not found`);
    return updated;
  },
});
