import { auditedChange, noChange, type Audited } from "@/db/audit/audited-change";
import { addMembership } from "@/db/auth/memberships";
import { countUsers, createUser, findUserByEmail, type UserRow } from "@/db/auth/users";
import type { Store, Tx } from "@/db/client";
import { projectExists } from "@/db/keys";
import { findIdentityUser } from "@/db/oidc/find-identity-user";
import { findUserSubject } from "@/db/oidc/find-user-subject";
import { linkIdentity } from "@/db/oidc/link-identity";
import { recordIdentitySignIn } from "@/db/oidc/record-identity-sign-in";
import type { ProjectRole } from "@/lib/auth/roles";
import type { SsoIdentity } from "@/lib/auth/sso-identity";
import { SsoFailure } from "./sso-failure";

/** What a new single-sign-on user gets, and the request's facts for the audit log. */
export interface SsoUserOptions {
  issuer: string;
  defaultProject: string;
  defaultRole: ProjectRole;
  now: number;
  address: string | null;
}

/** The user who signs in, and how they were found. */
export interface SsoUser {
  user: UserRow;
  how: "identity" | "linked" | "created";
}

const refuseDisabled = (user: UserRow) => {
  if (user.disabledAt !== null) throw new SsoFailure("sso_account_disabled", "the account is disabled", { email: user.email, userId: user.id });
};

// A known identity's sign-in time is bookkeeping: the callback audits the sign-in itself.
const signInOnly = noChange("a known identity signs in; the callback audits the sign-in");

async function match(tx: Tx, identity: SsoIdentity, o: SsoUserOptions): Promise<Audited<SsoUser>> {
  const known = await findIdentityUser(tx, o.issuer, identity.subject);
  if (known) {
    refuseDisabled(known);
    await recordIdentitySignIn(tx, o.issuer, identity.subject, identity.email, o.now);
    return { result: { user: known, how: "identity" }, audit: signInOnly };
  }
  const as = (user: UserRow) => ({ actorUserId: user.id, actorLabel: user.email });
  const byEmail = await findUserByEmail(tx, identity.email);
  if (byEmail) {
    refuseDisabled(byEmail);
    // A second subject for the same address at the same provider is another person who was given a
    // recycled address, or a provider misconfiguration: never let it into the first one's account.
    const linked = await findUserSubject(tx, byEmail.id, o.issuer);
    // This very identity, committed by a concurrent callback since the lookup above (READ COMMITTED).
    if (linked === identity.subject) {
      await recordIdentitySignIn(tx, o.issuer, identity.subject, identity.email, o.now);
      return { result: { user: byEmail, how: "identity" }, audit: signInOnly };
    }
    if (linked !== null) throw new SsoFailure("sso_identity_conflict", `the account is linked to another subject of ${o.issuer}`, { email: identity.email, userId: byEmail.id });
    await linkIdentity(tx, { issuer: o.issuer, subject: identity.subject, userId: byEmail.id, email: identity.email, now: o.now });
    return {
      result: { user: byEmail, how: "linked" },
      audit: { as: as(byEmail), projectId: null, action: "user.identity_linked", target: byEmail.email, detail: { method: "oidc", issuer: o.issuer } },
    };
  }
  // Before the owner account exists, the instance is in setup mode (everyone local is its owner):
  // the first account must come from the setup link, not from whoever the provider knows.
  if ((await countUsers(tx)) === 0) throw new SsoFailure("sso_setup_pending", "no account exists yet: the owner must use the setup link first", { email: identity.email, userId: null });
  if (!(await projectExists(tx, o.defaultProject))) {
    throw new SsoFailure("sso_project_missing", `the default project ${o.defaultProject} (FAULTLINE_OIDC_DEFAULT_PROJECT) does not exist`, { email: identity.email, userId: null });
  }
  const user = await createUser(tx, { email: identity.email, name: identity.name, passwordHash: null, instanceOwner: false, now: o.now });
  await addMembership(tx, o.defaultProject, user.id, o.defaultRole, o.now);
  await linkIdentity(tx, { issuer: o.issuer, subject: identity.subject, userId: user.id, email: identity.email, now: o.now });
  return { result: { user, how: "created" }, audit: { as: as(user), projectId: o.defaultProject, action: "member.joined", target: user.email, detail: { method: "oidc", role: o.defaultRole } } };
}

/** A unique key taken by a concurrent transaction (the same person's callback on another node). */
const isUniqueViolation = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
};

/**
 * Finds who signs in with a verified identity, in one transaction: the user its (issuer, subject)
 * is linked to; else the user with its email, linking the identity; else a new user without a
 * password, member of the default project with the default role. Disabled users are refused. Throws
 * `SsoFailure` for a refusal.
 */
export async function resolveSsoUser(store: Store, identity: SsoIdentity, options: SsoUserOptions): Promise<SsoUser> {
  const actor = { actorUserId: null, actorLabel: "anonymous", address: options.address };
  const attempt = () => auditedChange(store, actor, options.now, (tx) => match(tx, identity, options));
  try {
    return await attempt();
  } catch (error) {
    // The concurrent transaction created the user or linked the identity: this time it is found.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}
