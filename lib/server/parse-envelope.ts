import type { z } from "zod";
import { formatIssues } from "@/lib/contracts";
import { ApiError } from "./api-error";

/** Parses a batch envelope, answering 400 with every issue when its shape is wrong. */
export function parseEnvelope<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid batch: ${formatIssues(parsed.error.issues)}`, issues);
  }
  return parsed.data;
}
