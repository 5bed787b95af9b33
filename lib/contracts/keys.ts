import { z } from "zod";

/** `ingest` keys write telemetry; `read` keys read the release gate and the code contract (CI). */
export const KEY_SCOPES = ["ingest", "read"] as const;
export const keyScopeSchema = z.enum(KEY_SCOPES);
export type KeyScopeName = z.infer<typeof keyScopeSchema>;

/** `POST /api/v1/projects/:project/keys`. */
export const keyCreateSchema = z.object({
  name: z.string().trim().min(1, "give the key a name").max(100),
  scope: keyScopeSchema.default("ingest"),
});
export type KeyCreate = z.input<typeof keyCreateSchema>;

/** A key as listed: never its secret part. */
export const keySchema = z.object({
  name: z.string(),
  prefix: z.string(),
  scope: keyScopeSchema,
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
  revokedAt: z.number().int().nullable(),
});
export type KeyRow = z.infer<typeof keySchema>;

export const keysSchema = z.object({ keys: z.array(keySchema) });
export type KeysAnswer = z.infer<typeof keysSchema>;

/** The answer to a create: the clear key, this once. */
export const keyCreatedSchema = keySchema.extend({ key: z.string() });
export type KeyCreated = z.infer<typeof keyCreatedSchema>;
