import type { Audited } from "@/db/audit/audited-change";
import { addMembership, findMembershipRole, setMembershipRole } from "@/db/auth/memberships";
import { findInvitationByToken, markInvitationAccepted, type InvitationByToken } from "@/db/auth/invitations";
import { createUser, findUserByEmail, type UserRow } from "@/db/auth/users";
import type { Tx } from "@/db/client";
import { roleAtLeast, type ProjectRole } from "@/lib/auth/roles";
import { linkTokenSchema, newAccountSchema, type User } from "@/lib/contracts/auth";
import { config } from "../config";
import { ApiError } from "../http/api-error";
import { verifyThrottled } from "../http/auth-throttle";
import { getStore } from "../store";
import type { Caller } from "./access";
import { servedOverHttps } from "./cookies";
import { hashPassword } from "./password";
import { LINK_LIMIT_FACTOR, tokenHash } from "./tokens";

/** An invitation link works for a week. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

const gone = () => new ApiError("not_found", "this invitation link was used already, revoked, has expired, or was never issued; ask a project admin for a new one");

/** The origin links are made for: FAULTLINE_PUBLIC_URL, else the address this request came to. */
export function linkOrigin(req: Request): string {
  const publicUrl = config().publicUrl;
  if (publicUrl) return publicUrl.replace(/\/+$/, "");
  return `${servedOverHttps(req) ? "https" : "http"}://${req.headers.get("host") ?? new URL(req.url).host}`;
}

/**
 * The invitation a link's token names, if it can still be accepted; 404 otherwise (whatever the
 * reason). Wrong tokens are throttled by token and by `client`, the caller's address
 * (`verifyThrottled`); a valid link always works.
 */
export async function usableInvitation(token: string, client: string, now: number = Date.now()): Promise<InvitationByToken> {
  const store = await getStore();
  const invitation = await verifyThrottled(
    "invitation link",
    { presented: token, client },
    async () => {
      if (!linkTokenSchema.safeParse(token).success) return null;
      const found = await findInvitationByToken(store, tokenHash(token));
      return !found || found.acceptedAt !== null || found.revokedAt !== null || found.expiresAt <= now ? null : found;
    },
    { limitFactor: LINK_LIMIT_FACTOR },
  );
  if (!invitation) throw gone();
  return invitation;
}

/** What accepting an invitation gave. */
export interface Accepted {
  projectId: string;
  role: ProjectRole;
  user: User;
  /** True when the invitation created the account (the caller then signs it in). */
  created: boolean;
}

/** An invitation checked before it is accepted: the invitation, and the account to create (its password hashed) for a visitor who is not signed in. */
export interface Acceptance {
  invitation: InvitationByToken;
  account: { email: string; name: string; passwordHash: string } | null;
}

/**
 * Checks an invitation before it is accepted: the link must still work (404), and anyone but a
 * signed-in user must send a new account's fields (400), whose password is hashed here, outside
 * the transaction.
 */
export async function prepareAcceptance(token: string, client: string, caller: Caller | null, body: unknown): Promise<Acceptance> {
  const invitation = await usableInvitation(token, client);
  if (caller?.kind === "user") return { invitation, account: null };
  const parsed = newAccountSchema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `to accept without signing in, create an account: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
  }
  const { email, name, password } = parsed.data;
  return { invitation, account: { email, name, passwordHash: await hashPassword(password) } };
}

/**
 * Accepts an invitation, audited as `member.joined` by the account that joins. A signed-in user
 * joins with the invited role (a member who already has a stronger role keeps it); anyone else
 * creates the prepared account (409 when the email has one: they sign in first). The link is spent
 * in the same transaction as the membership, so it works once.
 */
export async function acceptChange(tx: Tx, { invitation, account }: Acceptance, caller: Caller | null, now: number): Promise<Audited<Accepted>> {
  if (caller?.kind === "user") {
    if (!(await markInvitationAccepted(tx, invitation.id, caller.userId, now))) throw gone();
    const had = await findMembershipRole(tx, invitation.projectId, caller.userId);
    if (had === null) await addMembership(tx, invitation.projectId, caller.userId, invitation.role, now);
    else if (!roleAtLeast(had, invitation.role)) await setMembershipRole(tx, invitation.projectId, caller.userId, invitation.role);
    const role = had !== null && roleAtLeast(had, invitation.role) ? had : invitation.role;
    return {
      result: { projectId: invitation.projectId, role, user: { id: caller.userId, email: caller.email, name: caller.name, instanceOwner: caller.instanceOwner }, created: false },
      audit: {
        projectId: invitation.projectId,
        as: { actorUserId: caller.userId, actorLabel: caller.email },
        action: "member.joined",
        target: caller.email,
        detail: { invitationId: invitation.id, invitedRole: invitation.role, role, previousRole: had },
      },
    };
  }
  if (!account) throw new Error("an invitation accepted without a session needs the prepared account");
  if (await findUserByEmail(tx, account.email)) throw new ApiError("conflict", `an account with the email ${account.email} exists: sign in, then open this link again`);
  const user: UserRow = await createUser(tx, { ...account, instanceOwner: false, now });
  if (!(await markInvitationAccepted(tx, invitation.id, user.id, now))) throw gone();
  await addMembership(tx, invitation.projectId, user.id, invitation.role, now);
  return {
    result: { projectId: invitation.projectId, role: invitation.role, user: { id: user.id, email: user.email, name: user.name, instanceOwner: false }, created: true },
    audit: {
      projectId: invitation.projectId,
      as: { actorUserId: user.id, actorLabel: user.email },
      action: "member.joined",
      target: user.email,
      detail: { invitationId: invitation.id, invitedRole: invitation.role, role: invitation.role, newAccount: true },
    },
  };
}
