import type { Audited } from "@/db/audit/audited-change";
import { countProjectOwners, deleteMembership, findMembershipRole, findProjectMember, listProjectMembers, setMembershipRole } from "@/db/auth/memberships";
import { findUserById } from "@/db/auth/users";
import type { Tx } from "@/db/client";
import { authEndpoints } from "@/lib/api/auth-endpoints";
import { memberChangeRefusal } from "@/lib/auth/member-rules";
import type { ProjectRole } from "@/lib/auth/roles";
import { memberPatchSchema } from "@/lib/contracts/auth";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/members`: every member may see who else is. */
export const membersRoute = defineRoute(authEndpoints.members, async ({ params }) => ({ members: await listProjectMembers(await getStore(), params.project) }));

/**
 * Changes (`next`) or removes (`null`) a membership, after the rules of lib/auth/member-rules.ts,
 * audited. A user who is not a member is a 404, whatever project they belong to.
 */
async function changeMember(tx: Tx, actorRole: ProjectRole, project: string, userId: string, next: ProjectRole | null): Promise<Audited<null>> {
  const current = await findMembershipRole(tx, project, userId);
  const user = current === null ? null : await findUserById(tx, userId);
  if (current === null || user === null) throw new ApiError("not_found", `no member ${userId} in project ${project}`);
  const refusal = memberChangeRefusal(actorRole, current, next, await countProjectOwners(tx, project));
  if (refusal) throw new ApiError(refusal.code, refusal.message);
  if (next === null) await deleteMembership(tx, project, userId);
  else await setMembershipRole(tx, project, userId, next);
  return {
    result: null,
    audit: {
      projectId: project,
      action: next === null ? "member.removed" : "member.role_changed",
      target: user.email,
      detail: next === null ? { userId, role: current } : { userId, from: current, to: next },
    },
  };
}

/** `PATCH /api/v1/projects/:project/members/:userId` (admin): `{ role }`. */
export const memberPatch = defineMutation({
  params: ["project", "userId"],
  body: memberPatchSchema,
  access: { project: "path", minimum: "admin" },
  change: (tx, { params: { project, userId }, body, role }) => changeMember(tx, role, project, userId, body.role),
  respond: async (_, { params: { project, userId } }) => Response.json(await findProjectMember(await getStore(), project, userId)),
});

/** `DELETE /api/v1/projects/:project/members/:userId` (admin). */
export const memberDelete = defineMutation({
  params: ["project", "userId"],
  access: { project: "path", minimum: "admin" },
  change: (tx, { params: { project, userId }, role }) => changeMember(tx, role, project, userId, null),
  respond: () => new Response(null, { status: 204 }),
});
