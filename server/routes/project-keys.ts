import { listKeys } from "@/db/keys";
import { createKeyAs } from "@/db/projects/create-key-as";
import { revokeKeyAs } from "@/db/projects/revoke-key-as";
import { endpoints } from "@/lib/api/endpoints";
import { keyCreateSchema } from "@/lib/contracts/keys";
import { requireProjectRole } from "../auth/access";
import { ApiError } from "../http/api-error";
import { auditActorOf } from "../http/audit-actor-of";
import { defineRoute } from "../http/define-route";
import { guardMutation, readMutation } from "../http/mutation-guard";
import { projectRead } from "../http/project-read";
import { route } from "../http/route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/keys`: admins list the keys (names, prefixes, scopes, times; never a secret). */
export const projectKeysRoute = projectRead(
  defineRoute(endpoints.projectKeys, async ({ params }) => ({
    keys: (await listKeys(await getStore(), params.project)).map(({ name, prefix, scope, createdAt, lastUsedAt, revokedAt }) => ({ name, prefix, scope, createdAt, lastUsedAt, revokedAt })),
  })),
  "admin",
);

/** `POST /api/v1/projects/:project/keys`: an admin creates a key; the answer holds the clear key, this once. */
export const keyCreate = route(async (req: Request, ctx: { params: Promise<{ project: string }> }) => {
  const { project } = await ctx.params;
  const { caller } = await requireProjectRole(req, project, "admin");
  const body = await readMutation(req, keyCreateSchema);
  const created = await createKeyAs(await getStore(), project, body, auditActorOf(req, caller), Date.now());
  if (!created) throw new ApiError("conflict", `project ${project} is archived: restore it before creating keys`);
  return Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } });
});

/** `DELETE /api/v1/projects/:project/keys/:prefix`: an admin revokes a key; ingest with it answers 401 from now on. */
export const keyRevoke = route(async (req: Request, ctx: { params: Promise<{ project: string; prefix: string }> }) => {
  const { project, prefix } = await ctx.params;
  const { caller } = await requireProjectRole(req, project, "admin");
  await guardMutation(req);
  const outcome = await revokeKeyAs(await getStore(), project, prefix, auditActorOf(req, caller), Date.now());
  if (outcome.result === "missing") throw new ApiError("not_found", `no key ${prefix} in project ${project}`);
  if (outcome.result === "already_revoked") throw new ApiError("conflict", `key ${prefix} was already revoked at ${new Date(outcome.revokedAt).toISOString()}`);
  return new Response(null, { status: 204 });
});
