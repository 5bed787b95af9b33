import { createInvitation, listPendingInvitations, revokeInvitation } from "@/db/auth/invitations";
import { authEndpoints } from "@/lib/api/auth-endpoints";
import { inviteRefusal } from "@/lib/auth/member-rules";
import { invitationAcceptSchema, invitationCreateSchema, type InvitationInfo } from "@/lib/contracts/auth";
import { accountsExist, actorOf } from "../auth/access";
import { acceptChange, INVITATION_TTL_MS, linkOrigin, prepareAcceptance, usableInvitation } from "../auth/invitations";
import { startSession, withCookies } from "../auth/session";
import { newToken, tokenHash } from "../auth/tokens";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { clientAddress } from "../http/node-server";
import { route } from "../http/route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/invitations` (admin): the links that can still be accepted. */
export const invitationsRoute = defineRoute(
  authEndpoints.invitations,
  async ({ params, now }) => ({ invitations: await listPendingInvitations(await getStore(), params.project, now) }),
  { minimumRole: "admin" },
);

/** `POST /api/v1/projects/:project/invitations` (admin): answers the one-time link, this once. */
export const invitationCreate = defineMutation({
  params: ["project"],
  body: invitationCreateSchema,
  access: { project: "path", minimum: "admin" },
  prepare: async ({ body, role }) => {
    const refusal = inviteRefusal(role, body.role);
    if (refusal) throw new ApiError(refusal.code, refusal.message);
    // The first account must be the instance owner (the setup link): an invitation accepted first would end setup mode without one.
    if (!(await accountsExist())) throw new ApiError("conflict", "create the owner account first, with the setup link printed at start (or `npm run keys -- setup-link`)");
    return newToken();
  },
  change: async (tx, { params: { project }, body, caller, prepared: token, now }) => {
    const invitation = await createInvitation(tx, { tokenHash: tokenHash(token), projectId: project, role: body.role, email: body.email, createdBy: actorOf(caller).actorUserId, now, expiresAt: now + INVITATION_TTL_MS });
    return { result: invitation, audit: { projectId: project, action: "member.invited", target: body.email, detail: { invitationId: invitation.id, role: body.role } } };
  },
  respond: (invitation, { req, prepared: token }) => Response.json({ invitation, url: `${linkOrigin(req)}/invite/${token}` }, { status: 201 }),
});

/** `DELETE /api/v1/projects/:project/invitations/:id` (admin): the link stops working. */
export const invitationRevoke = defineMutation({
  params: ["project", "id"],
  access: { project: "path", minimum: "admin" },
  change: async (tx, { params: { project, id }, now }) => {
    if (!/^[1-9]\d{0,15}$/.test(id) || !(await revokeInvitation(tx, project, Number(id), now))) throw new ApiError("not_found", `no pending invitation ${id} in project ${project}`);
    return { result: null, audit: { projectId: project, action: "invitation.revoked", target: null, detail: { invitationId: Number(id) } } };
  },
  respond: () => new Response(null, { status: 204 }),
});

type TokenCtx = { params: Promise<{ token: string }> };

/** `GET /api/v1/auth/invitations/:token` (no sign-in needed: the link is the credential): what it offers. */
export const invitationInfoGet = route(async (req: Request, ctx: TokenCtx) => {
  const i = await usableInvitation((await ctx.params).token, clientAddress(req, config().trustProxy));
  const info: InvitationInfo = { projectId: i.projectId, projectName: i.projectName, role: i.role, email: i.email, invitedBy: i.invitedBy, expiresAt: i.expiresAt };
  return Response.json(info);
});

/** `POST /api/v1/auth/invitations/:token`: join as the signed-in user, or create an account (then signed in). */
export const invitationAcceptPost = defineMutation({
  params: ["token"],
  body: invitationAcceptSchema,
  access: { anyone: "invitation-link" },
  prepare: ({ req, params, caller, body }) => prepareAcceptance(params.token, clientAddress(req, config().trustProxy), caller, body),
  change: (tx, { prepared, caller, now }) => acceptChange(tx, prepared, caller, now),
  respond: async (accepted, { req }) => {
    const answer = Response.json({ projectId: accepted.projectId, role: accepted.role, user: accepted.user }, { status: accepted.created ? 201 : 200 });
    return accepted.created ? withCookies(answer, await startSession(accepted.user.id, req, "password")) : answer;
  },
});
