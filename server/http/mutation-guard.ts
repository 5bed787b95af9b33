import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { formatIssues } from "@/lib/contracts";
import { callerOf } from "../auth/access";
import { CSRF_COOKIE, CSRF_HEADER } from "../auth/cookies";
import { ApiError } from "./api-error";
import { hostName } from "./host-check";
import { readBody } from "./read-body";

/**
 * A browser replays cookies and HTTP Basic credentials to any page that posts to us, so every write
 * refuses a cross-site request: an `Origin` naming another host, or `Sec-Fetch-Site: cross-site`.
 * Bodies must be JSON, which a plain HTML form cannot send.
 */
export function checkSameOrigin(req: Request): void {
  if (req.headers.get("sec-fetch-site") === "cross-site") throw new ApiError("forbidden", "cross-site requests may not change anything here");
  const origin = req.headers.get("origin");
  if (origin === null || origin === "null") {
    if (origin === "null") throw new ApiError("forbidden", "requests from an opaque origin may not change anything here");
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
    throw new ApiError("forbidden", `requests from ${origin} may not change anything here`);
  }
}

const sameToken = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * A request signed in by its session cookie must also carry the session's CSRF token in
 * `x-faultline-csrf`: another site can make the browser send the cookie, but cannot read the
 * `faultline_csrf` cookie to copy it into a header. The admin secret and setup mode need no token
 * (no cookie does their authenticating).
 */
export async function checkCsrf(req: Request): Promise<void> {
  const caller = await callerOf(req);
  if (caller?.kind !== "user") return;
  const sent = req.headers.get(CSRF_HEADER);
  if (sent === null) throw new ApiError("forbidden", `missing ${CSRF_HEADER} header: a signed-in browser sends the value of its ${CSRF_COOKIE} cookie with every change`);
  if (!sameToken(sent, caller.csrfToken)) throw new ApiError("forbidden", `wrong ${CSRF_HEADER} header: it must equal the ${CSRF_COOKIE} cookie of this session`);
}

/** The checks of a state-changing request without a body (a DELETE): same origin, and the CSRF token of a session. */
export async function guardMutation(req: Request): Promise<void> {
  checkSameOrigin(req);
  await checkCsrf(req);
}

/** A same-origin JSON body parsed with a contract schema (a bad value is a 400 with the issues); a session's CSRF token checked. */
export async function readMutation<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  await guardMutation(req);
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
