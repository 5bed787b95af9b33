import { noChange } from "@/db/audit/audited-change";
import { listUserMemberships } from "@/db/auth/memberships";
import { deleteSession, deleteUserSessions } from "@/db/auth/sessions";
import { listProjects } from "@/db/queries/list-projects";
import type { UserRow } from "@/db/auth/users";
import { authEndpoints } from "@/lib/api/auth-endpoints";
import { setupBodySchema, signInBodySchema, type Me, type User } from "@/lib/contracts/auth";
import { accountsExist, isInstanceLevel, type Caller } from "../auth/access";
import { clearedSessionCookies } from "../auth/cookies";
import { startSession, withCookies } from "../auth/session";
import { prepareSetup, setupChange } from "../auth/setup";
import { checkPassword, recordSignIn } from "../auth/sign-in";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** The public face of an account (never its hash or throttle state). */
export const publicUser = (u: Pick<UserRow, "id" | "email" | "name" | "instanceOwner">): User => ({ id: u.id, email: u.email, name: u.name, instanceOwner: u.instanceOwner });

async function membershipsOf(caller: Caller): Promise<Me["memberships"]> {
  const store = await getStore();
  if (caller.kind === "user" && !isInstanceLevel(caller)) return listUserMemberships(store, caller.userId);
  return (await listProjects(store)).projects.map((p) => ({ projectId: p.id, projectName: p.name, role: "owner" as const }));
}

/** `GET /api/v1/auth/me`: who the caller is and their role in each of their projects. */
export const meRoute = defineRoute(authEndpoints.me, async ({ caller }): Promise<Me> => ({
  caller: caller.kind,
  user: caller.kind === "user" ? publicUser({ id: caller.userId, email: caller.email, name: caller.name, instanceOwner: caller.instanceOwner }) : null,
  memberships: await membershipsOf(caller),
  setupMode: !(await accountsExist()),
}));

/** `POST /api/v1/auth/setup`: the one-time setup link creates the instance owner, who is signed in. */
export const setupPost = defineMutation({
  body: setupBodySchema,
  access: { anyone: "setup-link" },
  prepare: ({ req, body }) => prepareSetup(req, body),
  change: (tx, { body, prepared, now }) => setupChange(tx, body, prepared, now),
  respond: async (user, { req }) => withCookies(Response.json({ user: publicUser(user) }, { status: 201 }), await startSession(user.id, req, "password")),
});

/** `POST /api/v1/auth/sign-in`: email and password; the session is in the answer's cookies. A refusal is answered once it is recorded. */
export const signInPost = defineMutation({
  body: signInBodySchema,
  access: { anyone: "sign-in" },
  prepare: ({ req, body }) => checkPassword(req, body),
  change: (tx, { prepared, now }) => recordSignIn(tx, prepared, now),
  respond: async (verdict, { req }) => {
    if (!verdict.ok) throw verdict.refusal;
    return withCookies(Response.json({ user: publicUser(verdict.user) }), await startSession(verdict.user.id, req, "password"));
  },
});

/** `POST /api/v1/auth/sign-out`: ends this session (answers 204 and clears the cookies even without one). */
export const signOutPost = defineMutation({
  access: { anyone: "sign-out" },
  change: async (tx, { caller }) => {
    if (caller?.kind !== "user") return { result: null, audit: noChange("the request has no session to end") };
    await deleteSession(tx, caller.sessionTokenHash);
    return { result: null, audit: { projectId: null, action: "auth.sign_out", target: caller.email } };
  },
  respond: (_, { req }) => withCookies(new Response(null, { status: 204 }), clearedSessionCookies(req)),
});

/** `POST /api/v1/auth/sign-out-everywhere`: ends every session of the signed-in user, this one too. */
export const signOutEverywherePost = defineMutation({
  access: "signed-in",
  prepare: ({ caller }) => {
    if (caller.kind !== "user") throw new ApiError("forbidden", "only a signed-in user has sessions to end; the admin secret and setup mode have none");
    return caller;
  },
  change: async (tx, { prepared: user }) => {
    const sessionsEnded = await deleteUserSessions(tx, user.userId);
    return { result: { sessionsEnded }, audit: { projectId: null, action: "auth.sign_out_everywhere", target: user.email, detail: { sessionsEnded } } };
  },
  respond: (answer, { req }) => withCookies(Response.json(answer), clearedSessionCookies(req)),
});
