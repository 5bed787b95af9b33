import type { z } from "zod";
import { formatIssues } from "@/lib/contracts";
import { ApiError } from "./api-error";

/** Parses a request's query string with a contract schema; a bad value is a 400 with the issues. */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid query: ${formatIssues(parsed.error.issues)}`, issues);
  }
  return parsed.data;
}
