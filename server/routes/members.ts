import { recordAudit } from "@/db/audit/record-audit";
import { countProjectOwners, deleteMembership, findMembershipRole, findProjectMember, listProjectMembers, setMembershipRole } from "@/db/auth/memberships";
import { findUserById } from "@/db/auth/users";
import type { Tx } from "@/db/client";
import { authEndpoints } from "@/lib/api/auth-endpoints";
import { memberChangeRefusal } from "@/lib/auth/member-rules";
import type { ProjectRole } from "@/lib/auth/roles";
import { memberPatchSchema } from "@/lib/contracts/auth";
import { actorOf, requireProjectRole, type Caller } from "../auth/access";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { guardMutation, readMutation } from "../http/mutation-guard";
import { requestAddress } from "../http/request-address";
import { route } from "../http/route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/members`: every member may see who else is. */
export const membersRoute = defineRoute(authEndpoints.members, async ({ params }) => ({ members: await listProjectMembers(await getStore(), params.project) }));

type MemberCtx = { params: Promise<{ project: string; userId: string }> };

/**
 * Changes (`next`) or removes (`null`) a membership in one transaction, after the rules of
 * lib/auth/member-rules.ts, and audits it. A user who is not a member is a 404, whatever project
 * they belong to.
 */
async function changeMember(req: Request, caller: Caller, actorRole: ProjectRole, project: string, userId: string, next: ProjectRole | null): Promise<void> {
  const store = await getStore();
  await store.transaction(async (tx: Tx) => {
    const current = await findMembershipRole(tx, project, userId);
    const user = current === null ? null : await findUserById(tx, userId);
    if (current === null || user === null) throw new ApiError("not_found", `no member ${userId} in project ${project}`);
    const refusal = memberChangeRefusal(actorRole, current, next, await countProjectOwners(tx, project));
    if (refusal) throw new ApiError(refusal.code, refusal.message);
    if (next === null) await deleteMembership(tx, project, userId);
    else await setMembershipRole(tx, project, userId, next);
    await recordAudit(tx, {
      projectId: project,
      ...actorOf(caller),
      action: next === null ? "member.removed" : "member.role_changed",
      target: user.email,
      detail: next === null ? { userId, role: current } : { userId, from: current, to: next },
      address: requestAddress(req),
    });
  });
}

/** `PATCH /api/v1/projects/:project/members/:userId` (admin): `{ role }`. */
export const memberPatch = route(async (req: Request, ctx: MemberCtx) => {
  const { project, userId } = await ctx.params;
  const body = await readMutation(req, memberPatchSchema);
  const { caller, role } = await requireProjectRole(req, project, "admin");
  await changeMember(req, caller, role, project, userId, body.role);
  return Response.json(await findProjectMember(await getStore(), project, userId));
});

/** `DELETE /api/v1/projects/:project/members/:userId` (admin). */
export const memberDelete = route(async (req: Request, ctx: MemberCtx) => {
  await guardMutation(req);
  const { project, userId } = await ctx.params;
  const { caller, role } = await requireProjectRole(req, project, "admin");
  await changeMember(req, caller, role, project, userId, null);
  return new Response(null, { status: 204 });
});
