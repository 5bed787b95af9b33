import { DEFAULT_NEXT } from "@/lib/auth/next-path";
import type { SsoErrorCode } from "@/lib/auth/sso-errors";

/** Where the provider sends the browser back; register this exact address at the provider. */
export const CALLBACK_PATH = "/api/v1/auth/oidc/callback";

/**
 * The callback's absolute address: under FAULTLINE_PUBLIC_URL when set (behind a reverse proxy that
 * terminates TLS, the request itself came over plain HTTP from the proxy), else on the address the
 * browser asked for: its `Host` header (already checked against the served names by the proxy) and
 * the request's scheme. Not `req.url`: Next builds it from its own listening address.
 */
export function callbackUri(req: Request, publicUrl: string): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, "") + CALLBACK_PATH;
  const url = new URL(req.url);
  return `${url.protocol}//${req.headers.get("host") ?? url.host}${CALLBACK_PATH}`;
}

/** Cookies for the callback are Secure exactly when the callback is served over HTTPS. */
export const isHttps = (uri: string): boolean => uri.startsWith("https:");

/** The sign-in page with the failure's code (the page words it: lib/auth/sso-errors.ts), keeping where to go next. */
export function signInPage(code: SsoErrorCode, next: string): string {
  const query = new URLSearchParams({ error: code });
  if (next !== DEFAULT_NEXT) query.set("next", next);
  return `/sign-in?${query}`;
}

/** A redirect that sets cookies. Relative locations stay relative: they resolve against the address the browser used. */
export function redirectWithCookies(location: string, cookies: readonly string[], status: 302 | 303 = 303): Response {
  const headers = new Headers({ location, "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status, headers });
}
