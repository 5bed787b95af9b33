import type { z } from "zod";
import { formatIssues } from "@/lib/contracts";
import { ApiError } from "./api-error";
import { hostName } from "./host-check";
import { readBody } from "./read-body";

/**
 * Dashboard mutations sit behind the proxy's admin secret like its reads, but a browser replays HTTP
 * Basic credentials to any page that posts to us, so a write also refuses a cross-site request: an
 * `Origin` naming another host, or `Sec-Fetch-Site: cross-site`. Bodies must be JSON, which a plain
 * HTML form cannot send.
 */
export function checkSameOrigin(req: Request): void {
  if (req.headers.get("sec-fetch-site") === "cross-site") throw new ApiError("forbidden", "cross-site requests may not change alerts");
  const origin = req.headers.get("origin");
  if (origin === null || origin === "null") {
    if (origin === "null") throw new ApiError("forbidden", "requests from an opaque origin may not change alerts");
    return;
  }
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ApiError("forbidden", "the Origin header is not a URL");
  }
  const host = req.headers.get("host") ?? "";
  if (hostName(originHost) !== hostName(host) || originHost.toLowerCase() !== host.trim().toLowerCase()) {
    throw new ApiError("forbidden", `requests from ${origin} may not change alerts`);
  }
}

/** A same-origin JSON body parsed with a contract schema (a bad value is a 400 with the issues). */
export async function readMutation<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  checkSameOrigin(req);
  const raw = await readBody(req, ["application/json"]);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ApiError("invalid_json", "body is not valid JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new ApiError("bad_request", `invalid body: ${formatIssues(parsed.error.issues)}`, issues);
  }
  return parsed.data;
}
