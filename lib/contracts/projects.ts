import { z } from "zod";

/** The projects the caller can open, for the project switcher; an archived one is marked there. */
export const projectsSchema = z.object({
  projects: z.array(z.object({ id: z.string(), name: z.string(), archivedAt: z.number().int().nullable() })),
});
export type ProjectsAnswer = z.infer<typeof projectsSchema>;

export const setupQuerySchema = z.object({ project: z.string().min(1).max(100).default("default") });

/** What the first-run guide needs: never a key, only the visible prefixes of active keys. */
export const setupSchema = z.object({
  project: z.string(),
  projectExists: z.boolean(),
  hasData: z.boolean(),
  keyPrefixes: z.array(z.object({ prefix: z.string(), name: z.string(), createdAt: z.number() })),
});
export type SetupInfo = z.infer<typeof setupSchema>;
