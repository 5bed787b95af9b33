import { z } from "zod";

/**
 * A new project's id: it appears in URLs (`?project=`) and in the CLI, so it is a slug: lowercase
 * letters, digits and inner hyphens, at most 64 characters.
 */
export const projectIdSchema = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/, "use 1–64 lowercase letters, digits and hyphens, not starting or ending with a hyphen");

const projectName = z.string().trim().min(1, "give the project a name").max(100);

/** `POST /api/v1/projects`. */
export const projectCreateSchema = z.object({ id: projectIdSchema, name: projectName });
export type ProjectCreate = z.infer<typeof projectCreateSchema>;

/** `PATCH /api/v1/projects/:project`: rename, archive (`archived: true`) or restore (`false`). */
export const projectPatchSchema = z
  .object({ name: projectName.optional(), archived: z.boolean().optional() })
  .refine((p) => p.name !== undefined || p.archived !== undefined, { message: "nothing to change: give name, archived or both" });
export type ProjectPatch = z.infer<typeof projectPatchSchema>;

/** One project with its archive state and how many keys it has. */
export const projectDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.number().int(),
  /** When the project was archived (ingest refused, alerts stopped, data readable), or null. */
  archivedAt: z.number().int().nullable(),
  keys: z.object({ active: z.number().int(), revoked: z.number().int() }),
});
export type ProjectDetail = z.infer<typeof projectDetailSchema>;
