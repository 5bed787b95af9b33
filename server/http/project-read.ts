import type { z } from "zod";
import type { ProjectRole } from "@/lib/auth/roles";
import { requireProjectRole } from "../auth/access";
import type { ReadRoute } from "./define-route";
import { route } from "./route";

/**
 * A read endpoint under `/api/v1/projects/:project/…` that only callers with at least `minimum` in
 * that project may read: the role check runs before the query is even parsed, so a stranger learns
 * nothing (404) and a bad query from one costs nothing. Pages check the role themselves before
 * they prefetch (app/settings/page-access.tsx).
 */
export function projectRead<Q extends z.ZodObject, R extends z.ZodType>(read: ReadRoute<Q, R, "project">, minimum: ProjectRole): ReadRoute<Q, R, "project"> {
  return {
    ...read,
    GET: route(async (req: Request, ctx: { params: Promise<Record<"project", string>> }) => {
      await requireProjectRole(req, (await ctx.params).project, minimum);
      return read.GET(req, ctx);
    }),
  };
}
