import { z } from "zod";

// Apart from ./auth.ts: every page's header reads who is signed in and can sign out, without the
// sign-in, setup, invitation and member contracts.

/** lib/auth/roles.ts's PROJECT_ROLES (contracts depend on zod only; a unit test keeps the two equal). */
export const projectRoleSchema = z.enum(["owner", "admin", "member", "viewer"]);

/** An account as the API shows it (never its password hash or throttle state). */
export const userSchema = z.object({ id: z.string(), email: z.string(), name: z.string(), instanceOwner: z.boolean() });
/** An account as the API shows it. */
export type User = z.infer<typeof userSchema>;

/** One project of the caller, with their role in it. */
export const membershipSchema = z.object({ projectId: z.string(), projectName: z.string(), role: projectRoleSchema });
/** One project of the caller, with their role in it. */
export type Membership = z.infer<typeof membershipSchema>;

/**
 * `GET /api/v1/auth/me`: who the caller is. Instance-level callers (an instance owner, the admin
 * secret, setup mode) list every project as owner; `setupMode` is true while no account exists.
 */
export const meSchema = z.object({
  caller: z.enum(["user", "admin-secret", "open"]),
  user: userSchema.nullable(),
  memberships: z.array(membershipSchema),
  setupMode: z.boolean(),
});
/** The answer of `GET /api/v1/auth/me`. */
export type Me = z.infer<typeof meSchema>;

/** `POST /api/v1/auth/sign-out-everywhere`: how many sessions ended (this one included). */
export const signedOutEverywhereSchema = z.object({ sessionsEnded: z.number().int() });
