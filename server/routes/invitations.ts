import { recordAudit } from "@/db/audit/record-audit";
import { createInvitation, listPendingInvitations, revokeInvitation } from "@/db/auth/invitations";
import { authEndpoints } from "@/lib/api/auth-endpoints";
import { inviteRefusal } from "@/lib/auth/member-rules";
import { invitationAcceptSchema, invitationCreateSchema, type InvitationInfo } from "@/lib/contracts/auth";
import { accountsExist, actorOf, callerOf, requireProjectRole } from "../auth/access";
import { acceptInvitation, INVITATION_TTL_MS, linkOrigin, usableInvitation } from "../auth/invitations";
import { startSession, withCookies } from "../auth/session";
import { newToken, tokenHash } from "../auth/tokens";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { guardMutation, readMutation } from "../http/mutation-guard";
import { requestAddress } from "../http/request-address";
import { route } from "../http/route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/invitations` (admin): the links that can still be accepted. */
export const invitationsRoute = defineRoute(
  authEndpoints.invitations,
  async ({ params, now }) => ({ invitations: await listPendingInvitations(await getStore(), params.project, now) }),
  { minimumRole: "admin" },
);

/** `POST /api/v1/projects/:project/invitations` (admin): answers the one-time link, this once. */
export const invitationCreate = route(async (req: Request, ctx: { params: Promise<{ project: string }> }) => {
  const { project } = await ctx.params;
  const body = await readMutation(req, invitationCreateSchema);
  const { caller, role } = await requireProjectRole(req, project, "admin");
  const refusal = inviteRefusal(role, body.role);
  if (refusal) throw new ApiError(refusal.code, refusal.message);
  // The first account must be the instance owner (the setup link): an invitation accepted first would end setup mode without one.
  if (!(await accountsExist())) throw new ApiError("conflict", "create the owner account first, with the setup link printed at start (or `npm run keys -- setup-link`)");
  const token = newToken();
  const now = Date.now();
  const store = await getStore();
  const invitation = await store.transaction(async (tx) => {
    const created = await createInvitation(tx, { tokenHash: tokenHash(token), projectId: project, role: body.role, email: body.email, createdBy: actorOf(caller).actorUserId, now, expiresAt: now + INVITATION_TTL_MS });
    await recordAudit(tx, { projectId: project, ...actorOf(caller), action: "member.invited", target: body.email, detail: { invitationId: created.id, role: body.role }, address: requestAddress(req), at: now });
    return created;
  });
  return Response.json({ invitation, url: `${linkOrigin(req)}/invite/${token}` }, { status: 201 });
});

/** `DELETE /api/v1/projects/:project/invitations/:id` (admin): the link stops working. */
export const invitationRevoke = route(async (req: Request, ctx: { params: Promise<{ project: string; id: string }> }) => {
  await guardMutation(req);
  const { project, id } = await ctx.params;
  const { caller } = await requireProjectRole(req, project, "admin");
  const store = await getStore();
  const revoked = /^[1-9]\d{0,15}$/.test(id) && (await store.transaction(async (tx) => {
    if (!(await revokeInvitation(tx, project, Number(id), Date.now()))) return false;
    await recordAudit(tx, { projectId: project, ...actorOf(caller), action: "invitation.revoked", target: null, detail: { invitationId: Number(id) }, address: requestAddress(req) });
    return true;
  }));
  if (!revoked) throw new ApiError("not_found", `no pending invitation ${id} in project ${project}`);
  return new Response(null, { status: 204 });
});

type TokenCtx = { params: Promise<{ token: string }> };

/** `GET /api/v1/auth/invitations/:token` (no sign-in needed: the link is the credential): what it offers. */
export const invitationInfoGet = route(async (_req: Request, ctx: TokenCtx) => {
  const i = await usableInvitation((await ctx.params).token);
  const info: InvitationInfo = { projectId: i.projectId, projectName: i.projectName, role: i.role, email: i.email, invitedBy: i.invitedBy, expiresAt: i.expiresAt };
  return Response.json(info);
});

/** `POST /api/v1/auth/invitations/:token`: join as the signed-in user, or create an account (then signed in). */
export const invitationAcceptPost = route(async (req: Request, ctx: TokenCtx) => {
  const body = await readMutation(req, invitationAcceptSchema);
  const accepted = await acceptInvitation(req, (await ctx.params).token, await callerOf(req), body);
  const answer = Response.json({ projectId: accepted.projectId, role: accepted.role, user: accepted.user }, { status: accepted.created ? 201 : 200 });
  return accepted.created ? withCookies(answer, await startSession(accepted.user.id, req, "password")) : answer;
});
