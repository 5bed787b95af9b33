import { listKeys } from "@/db/keys";
import { createKeyChange } from "@/db/projects/create-key-as";
import { revokeKeyChange } from "@/db/projects/revoke-key-as";
import { endpoints } from "@/lib/api/endpoints";
import { keyCreateSchema } from "@/lib/contracts/keys";
import { ApiError } from "../http/api-error";
import { defineMutation } from "../http/define-mutation";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/projects/:project/keys`: admins list the keys (names, prefixes, scopes, times; never a secret). */
export const projectKeysRoute = defineRoute(
  endpoints.projectKeys,
  async ({ params }) => ({
    keys: (await listKeys(await getStore(), params.project)).map(({ name, prefix, scope, createdAt, lastUsedAt, revokedAt }) => ({ name, prefix, scope, createdAt, lastUsedAt, revokedAt })),
  }),
  { minimumRole: "admin" },
);

/** `POST /api/v1/projects/:project/keys`: an admin creates a key; the answer holds the clear key, this once. */
export const keyCreate = defineMutation({
  params: ["project"],
  body: keyCreateSchema,
  access: { project: "path", minimum: "admin" },
  change: async (tx, { params: { project }, body, now }) => {
    const created = await createKeyChange(tx, project, body, now);
    if (!created.result) throw new ApiError("conflict", `project ${project} is archived: restore it before creating keys`);
    return created;
  },
  respond: (created) => Response.json(created, { status: 201, headers: { "Cache-Control": "no-store" } }),
});

/** `DELETE /api/v1/projects/:project/keys/:prefix`: an admin revokes a key; ingest with it answers 401 from now on. */
export const keyRevoke = defineMutation({
  params: ["project", "prefix"],
  access: { project: "path", minimum: "admin" },
  change: async (tx, { params: { project, prefix }, now }) => {
    const revoked = await revokeKeyChange(tx, project, prefix, now);
    const outcome = revoked.result;
    if (outcome.result === "missing") throw new ApiError("not_found", `no key ${prefix} in project ${project}`);
    if (outcome.result === "already_revoked") throw new ApiError("conflict", `key ${prefix} was already revoked at ${new Date(outcome.revokedAt).toISOString()}`);
    return revoked;
  },
  respond: () => new Response(null, { status: 204 }),
});
