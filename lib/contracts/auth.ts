import { z } from "zod";
import { projectRoleSchema, userSchema } from "./me";

export { meSchema, membershipSchema, projectRoleSchema, signedOutEverywhereSchema, userSchema, type Me, type Membership, type User } from "./me";

/** Passwords are hashed whole; the bounds keep a typo from locking anyone out and a megabyte from costing a hash. */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

/** An email as the sign-in name: trimmed and lowercased, so `Ada@Example.com` and `ada@example.com` are one account. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "at most 254 characters")
  .pipe(z.email("an email address such as ada@example.com"));

/** A new password (setup, a new account): the length bounds only; no composition rules. */
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `at most ${PASSWORD_MAX_LENGTH} characters`);

/** How a person is shown to their team. */
export const personNameSchema = z.string().trim().min(1, "a name is required").max(100, "at most 100 characters");

/** A one-time token from a setup or invitation link (base64url, 43 characters as issued). */
export const linkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, "a token from a setup or invitation link");

/** `POST /api/v1/auth/setup`: the instance owner's account, with the token of the printed setup link. */
export const setupBodySchema = z.object({ token: linkTokenSchema, email: emailSchema, name: personNameSchema, password: passwordSchema });
/** The body of `POST /api/v1/auth/setup`. */
export type SetupBody = z.infer<typeof setupBodySchema>;

/** `POST /api/v1/auth/sign-in`. The password rules are not re-checked here: an old password still signs in. */
export const signInBodySchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "an email is required").max(254, "at most 254 characters"),
  password: z.string().min(1, "a password is required").max(PASSWORD_MAX_LENGTH, `at most ${PASSWORD_MAX_LENGTH} characters`),
});
/** The body of `POST /api/v1/auth/sign-in`. */
export type SignInBody = z.infer<typeof signInBodySchema>;

/** What setup, sign-in and accepting an invitation as a new account answer (the session is in the cookies). */
export const signedInSchema = z.object({ user: userSchema });

/** `POST /api/v1/projects/:project/invitations`. `email` only labels the invitation: the link is the credential. */
export const invitationCreateSchema = z.object({ role: projectRoleSchema, email: emailSchema.nullable().default(null) });
/** The body of `POST /api/v1/projects/:project/invitations`. */
export type InvitationCreate = z.infer<typeof invitationCreateSchema>;

/** A pending invitation as its project's admins see it (never its token). */
export const invitationSchema = z.object({
  id: z.number().int(),
  projectId: z.string(),
  role: projectRoleSchema,
  email: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
/** A pending invitation as its project's admins see it. */
export type Invitation = z.infer<typeof invitationSchema>;

/** `GET /api/v1/projects/:project/invitations`: the invitations that can still be accepted. */
export const invitationsSchema = z.object({ invitations: z.array(invitationSchema) });

/** The answer to creating an invitation: the one-time link, shown this once (only its hash is stored). */
export const invitationCreatedSchema = z.object({ invitation: invitationSchema, url: z.string() });
/** The answer to creating an invitation. */
export type InvitationCreated = z.infer<typeof invitationCreatedSchema>;

/** `GET /api/v1/auth/invitations/:token`: what the link offers, for the page that accepts it. */
export const invitationInfoSchema = z.object({
  projectId: z.string(),
  projectName: z.string(),
  role: projectRoleSchema,
  email: z.string().nullable(),
  invitedBy: z.string().nullable(),
  expiresAt: z.number(),
});
/** What an invitation link offers. */
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

/** A new account from an invitation; a signed-in user accepts with an empty body. */
export const newAccountSchema = z.object({ email: emailSchema, name: personNameSchema, password: passwordSchema });
/** `POST /api/v1/auth/invitations/:token`: an account's fields, or nothing from a signed-in user (checked in full when an account is made). */
export const invitationAcceptSchema = newAccountSchema.partial();

/** `POST /api/v1/auth/invitations/:token`: the membership it gave and who holds it. */
export const invitationAcceptedSchema = z.object({ projectId: z.string(), role: projectRoleSchema, user: userSchema });
/** The answer to accepting an invitation. */
export type InvitationAccepted = z.infer<typeof invitationAcceptedSchema>;

/** A member of a project with their role. */
export const memberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: projectRoleSchema,
  instanceOwner: z.boolean(),
  joinedAt: z.number(),
});
/** A member of a project with their role. */
export type Member = z.infer<typeof memberSchema>;

/** `GET /api/v1/projects/:project/members`. */
export const membersSchema = z.object({ members: z.array(memberSchema) });
/** `GET /api/v1/projects/:project/members`. */
export type MembersAnswer = z.infer<typeof membersSchema>;

/** `PATCH /api/v1/projects/:project/members/:userId`. */
export const memberPatchSchema = z.object({ role: projectRoleSchema });
