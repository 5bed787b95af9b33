import { timingSafeEqual } from "node:crypto";
import { callerOf } from "../auth/access";
import { CSRF_COOKIE, CSRF_HEADER } from "../auth/cookies";
import { ApiError } from "./api-error";
import { hostName } from "./host-check";

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
