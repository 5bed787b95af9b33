/** Where a sign-in lands when no usable `next` was given. */
export const DEFAULT_NEXT = "/";

const BASE = "http://next-path.invalid";

/** Pages a `next` may not lead back to: the sign-in and setup pages themselves (a loop) and the API (JSON, not a page). */
const REFUSED = [/^\/sign-in(?:[/?#]|$)/, /^\/setup(?:[/?#]|$)/, /^\/api(?:[/?#]|$)/];

/**
 * The page to open after signing in, from an untrusted `?next=`: a path of this site (with its query
 * and fragment), or "/" for anything else. An absolute URL, a scheme-relative `//host`, a backslash
 * (`/\host`, which browsers read as `//host`) or a control character would turn the sign-in page into
 * an open redirect that a phishing link could bounce through.
 */
export function safeNextPath(raw: string | null | undefined): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2000) return DEFAULT_NEXT;
  if (!raw.startsWith("/") || raw.startsWith("//") || /[\\\u0000-\u001f\u007f]/.test(raw)) return DEFAULT_NEXT;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return DEFAULT_NEXT;
  }
  if (url.origin !== BASE) return DEFAULT_NEXT;
  const path = url.pathname + url.search + url.hash;
  return REFUSED.some((r) => r.test(url.pathname)) ? DEFAULT_NEXT : path;
}

/** The sign-in page's address that comes back to `path` afterwards. */
export function signInPath(path: string): string {
  const next = safeNextPath(path);
  return next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`;
}
