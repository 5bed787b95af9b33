import { config } from "../config";

/** The session's token: HttpOnly, so page scripts (and an injected one) never see it. */
export const SESSION_COOKIE = "faultline_session";
/** The session's CSRF token: readable by the page, which echoes it in `x-faultline-csrf`. */
export const CSRF_COOKIE = "faultline_csrf";
/** The header a state-changing request of a signed-in browser carries. */
export const CSRF_HEADER = "x-faultline-csrf";

/** One cookie's value from the request's `Cookie` header, or null. */
export function readCookie(req: Request, name: string): string | null {
  const header = req.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/**
 * Whether the browser reached us over HTTPS: the request's own scheme, the last `X-Forwarded-Proto`
 * of a trusted reverse proxy (FAULTLINE_TRUST_PROXY=1), or an https FAULTLINE_PUBLIC_URL.
 */
export function servedOverHttps(req: Request): boolean {
  const c = config();
  if (new URL(req.url).protocol === "https:" || c.publicUrl.toLowerCase().startsWith("https:")) return true;
  if (!c.trustProxy) return false;
  const forwarded = (req.headers.get("x-forwarded-proto") ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean).pop();
  return forwarded === "https";
}

function cookie(name: string, value: string, req: Request, maxAgeSeconds: number, httpOnly: boolean): string {
  return [`${name}=${value}`, "Path=/", `Max-Age=${maxAgeSeconds}`, "SameSite=Lax", ...(httpOnly ? ["HttpOnly"] : []), ...(servedOverHttps(req) ? ["Secure"] : [])].join("; ");
}

/** The two cookies of a session, living as long as the session does (they are sent again when it slides). */
export function sessionCookies(token: string, csrfToken: string, req: Request, ttlMs: number): string[] {
  const seconds = Math.max(1, Math.floor(ttlMs / 1000));
  return [cookie(SESSION_COOKIE, token, req, seconds, true), cookie(CSRF_COOKIE, csrfToken, req, seconds, false)];
}

/** Cookies that make the browser forget its session. */
export function clearedSessionCookies(req: Request): string[] {
  return [cookie(SESSION_COOKIE, "", req, 0, true), cookie(CSRF_COOKIE, "", req, 0, false)];
}
