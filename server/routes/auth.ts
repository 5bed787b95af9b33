import { recordAudit } from "@/db/audit/record-audit";
import { listUserMemberships } from "@/db/auth/memberships";
import { deleteSession, deleteUserSessions } from "@/db/auth/sessions";
import { listProjects } from "@/db/queries/list-projects";
import type { UserRow } from "@/db/auth/users";
import { authEndpoints } from "@/lib/api/auth-endpoints";
import { setupBodySchema, signInBodySchema, type Me, type User } from "@/lib/contracts/auth";
import { accountsExist, actorOf, callerOf, isInstanceLevel, requireCaller, type Caller } from "../auth/access";
import { clearedSessionCookies } from "../auth/cookies";
import { startSession, withCookies } from "../auth/session";
import { completeSetup } from "../auth/setup";
import { authenticatePassword } from "../auth/sign-in";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { guardMutation, readMutation } from "../http/mutation-guard";
import { requestAddress } from "../http/request-address";
import { route } from "../http/route";
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
export const setupPost = route(async (req: Request) => {
  const body = await readMutation(req, setupBodySchema);
  const user = await completeSetup(req, body);
  return withCookies(Response.json({ user: publicUser(user) }, { status: 201 }), await startSession(user.id, req, "password"));
});

/** `POST /api/v1/auth/sign-in`: email and password; the session is in the answer's cookies. */
export const signInPost = route(async (req: Request) => {
  const body = await readMutation(req, signInBodySchema);
  const user = await authenticatePassword(req, body);
  return withCookies(Response.json({ user: publicUser(user) }), await startSession(user.id, req, "password"));
});

/** `POST /api/v1/auth/sign-out`: ends this session (answers 204 and clears the cookies even without one). */
export const signOutPost = route(async (req: Request) => {
  await guardMutation(req);
  const caller = await callerOf(req);
  if (caller?.kind === "user") {
    const store = await getStore();
    await store.transaction(async (tx) => {
      await deleteSession(tx, caller.sessionTokenHash);
      await recordAudit(tx, { projectId: null, ...actorOf(caller), action: "auth.sign_out", target: caller.email, address: requestAddress(req) });
    });
  }
  return withCookies(new Response(null, { status: 204 }), clearedSessionCookies(req));
});

/** `POST /api/v1/auth/sign-out-everywhere`: ends every session of the signed-in user, this one too. */
export const signOutEverywherePost = route(async (req: Request) => {
  await guardMutation(req);
  const caller = await requireCaller(req);
  if (caller.kind !== "user") throw new ApiError("forbidden", "only a signed-in user has sessions to end; the admin secret and setup mode have none");
  const store = await getStore();
  const sessionsEnded = await store.transaction(async (tx) => {
    const ended = await deleteUserSessions(tx, caller.userId);
    await recordAudit(tx, { projectId: null, ...actorOf(caller), action: "auth.sign_out_everywhere", target: caller.email, detail: { sessionsEnded: ended }, address: requestAddress(req) });
    return ended;
  });
  return withCookies(Response.json({ sessionsEnded }), clearedSessionCookies(req));
});
