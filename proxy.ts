import { randomBytes } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { safeNextPath, signInPath } from "./lib/auth/next-path";
import { pageQueryProblem } from "./lib/query/page-queries";
import { accountsExist, resolveCaller, signInRequired } from "./server/auth/access";
import { readCookie, SESSION_COOKIE, sessionCookies } from "./server/auth/cookies";
import { config as serverConfig } from "./server/config";
import { ApiError, isStorageUnavailable, STORAGE_RETRY_AFTER, STORAGE_UNAVAILABLE } from "./server/http/api-error";
import { hostAllowed, misdirected } from "./server/http/host-check";

/**
 * The page policy: scripts only with this request's nonce (Next reads it from the request's CSP
 * header and puts it on its framework and page scripts; 'strict-dynamic' lets those load their
 * chunks), so an injected inline script cannot run. React and recharts set `style` attributes, which
 * no nonce can cover, so only attributes may be inline; <style> and stylesheets need the nonce or
 * 'self'. Development adds 'unsafe-eval', which React uses there to rebuild server error stacks.
 */
function contentSecurityPolicy(nonce: string): string {
  const dev = process.env.NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

/** An ApiError as the proxy's answer (the proxy cannot use the route wrapper). */
function errorAnswer(error: { code: string; message: string; headers?: Record<string, string> }, status: number): NextResponse {
  return NextResponse.json({ error: { code: error.code, message: error.message } }, { status, headers: error.headers });
}

/** What anyone may open without signing in: the sign-in, setup and invitation pages and the auth API (single sign-on included). */
const PUBLIC_PATHS = [/^\/sign-in\/?$/, /^\/setup\/?$/, /^\/invite\/[^/]+\/?$/, /^\/api\/v1\/auth(?:\/|$)/];

type Verdict = { denied: NextResponse } | { cookies: string[] };

/**
 * Who may pass: a live session, the admin secret, or anyone in setup mode (no account and no admin
 * secret yet); anyone to a public path (where a session still gets its cookies renewed). Anonymous
 * requests are turned away here, before any page or API runs: an API request with 401, a page with
 * a redirect to the sign-in page (which comes back afterwards) or, while an admin secret guards an
 * instance without accounts, with the browser's Basic prompt for the secret. The route layer checks
 * again (ingest, the gate and health skip this proxy) and checks roles.
 */
async function admit(req: NextRequest, isPublic: boolean): Promise<Verdict> {
  // Nothing to find on a public page without a session cookie: the sign-in page costs no query.
  if (isPublic && !readCookie(req, SESSION_COOKIE)) return { cookies: [] };
  let resolution;
  try {
    resolution = await resolveCaller(req, { slide: true });
  } catch (error) {
    if (!(error instanceof ApiError && error.code === "rate_limited")) throw error;
    if (isPublic) return { cookies: [] };
    return { denied: errorAnswer(error, 429) };
  }
  const { caller, slidTo } = resolution;
  if (caller || isPublic) {
    // A session that slid gets its cookies again with the new lifetime.
    const token = readCookie(req, SESSION_COOKIE);
    return { cookies: caller?.kind === "user" && slidTo !== null && token ? sessionCookies(token, caller.csrfToken, req, slidTo - Date.now()) : [] };
  }
  if (!(await accountsExist())) {
    return {
      denied: NextResponse.json(
        { error: { code: "unauthorized", message: "this Faultline requires the admin secret" } },
        { status: 401, headers: { "WWW-Authenticate": 'Basic realm="faultline", charset="UTF-8"' } },
      ),
    };
  }
  if (req.nextUrl.pathname.startsWith("/api/")) return { denied: errorAnswer(signInRequired(), 401) };
  // Back to the page asked for after signing in (without the router's `_rsc` cache-buster).
  const back = new URL(req.nextUrl.pathname + req.nextUrl.search, "http://page.invalid");
  back.searchParams.delete("_rsc");
  const next = safeNextPath(back.pathname + back.search);
  return { denied: NextResponse.redirect(new URL(signInPath(next), req.nextUrl), 307) };
}

/**
 * Who may pass, when storage cannot say: an API request gets the envelope's 503 with Retry-After,
 * a page the in-app "storage unavailable" page (which retries by itself), never Next's plain 500.
 */
async function admitOrUnavailable(req: NextRequest, isPublic: boolean): Promise<Verdict | { unavailable: true }> {
  try {
    return await admit(req, isPublic);
  } catch (error) {
    if (!isStorageUnavailable(error)) throw error;
    console.error(`[faultline] storage unavailable while admitting ${req.method} ${req.nextUrl.pathname}: ${error instanceof Error ? error.message : String(error)}`);
    return { unavailable: true };
  }
}

/** app/storage-unavailable/page.tsx. */
const STORAGE_PAGE = "/storage-unavailable";

function storageUnavailable(req: NextRequest, requestHeaders: Headers): NextResponse {
  const headers = { "Retry-After": STORAGE_RETRY_AFTER, "Cache-Control": "no-store" };
  if (req.nextUrl.pathname === "/api" || req.nextUrl.pathname.startsWith("/api/")) return NextResponse.json(STORAGE_UNAVAILABLE, { status: 503, headers });
  return NextResponse.rewrite(new URL(STORAGE_PAGE, req.nextUrl), { status: 503, headers, request: { headers: requestHeaders } });
}

/**
 * A page address with a bad filter (`?range=9y`, `?hasErrors=maybe`) is answered with HTTP 400: the
 * page renders its in-app explanation (page-guards' `badParameter`, the same check), and the status
 * tells crawlers, monitors and scripts the link is wrong. Only document loads: a client navigation's
 * RSC request keeps 200, as Next's router would otherwise reload the page to show a non-200 answer.
 */
function badParameterAnswer(req: NextRequest, requestHeaders: Headers): NextResponse | null {
  if (req.method !== "GET" || req.headers.has("rsc") || pageQueryProblem(req.nextUrl.pathname, req.nextUrl.searchParams) === null) return null;
  // Next carries the proxy's status onto the page's answer (a rewrite to the same address would loop).
  return NextResponse.next({ status: 400, headers: { "Cache-Control": "no-store" }, request: { headers: requestHeaders } });
}

/**
 * Every dashboard request: the `Host` check (421 for a name not served here: DNS rebinding), who
 * may pass (`admit`), and a per-request nonce in the CSP.
 */
export async function proxy(req: NextRequest): Promise<NextResponse> {
  const nonce = randomBytes(16).toString("base64");
  const csp = contentSecurityPolicy(nonce);
  // The storage page itself needs no caller (and no database): the rewrite to it comes back here.
  const verdict = !hostAllowed(req.headers.get("host"), serverConfig().allowedHosts)
    ? { denied: errorAnswer(misdirected(), 421) }
    : req.nextUrl.pathname === STORAGE_PAGE
      ? { cookies: [] }
      : await admitOrUnavailable(req, PUBLIC_PATHS.some((p) => p.test(req.nextUrl.pathname)));
  if ("denied" in verdict) {
    verdict.denied.headers.set("Content-Security-Policy", csp);
    return verdict.denied;
  }
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set("x-nonce", nonce);
  // app/not-found.tsx names what is missing (a tool, a project) from the address asked for; pages
  // that send a visitor to sign in come back to it.
  requestHeaders.set("x-faultline-url", req.nextUrl.pathname + req.nextUrl.search);
  if ("unavailable" in verdict) {
    const res = storageUnavailable(req, requestHeaders);
    res.headers.set("Content-Security-Policy", csp);
    return res;
  }
  const res = badParameterAnswer(req, requestHeaders) ?? NextResponse.next({ request: { headers: requestHeaders } });
  res.headers.set("Content-Security-Policy", csp);
  for (const cookie of verdict.cookies) res.headers.append("Set-Cookie", cookie);
  return res;
}

// Ingest (OTLP's /v1/* and Langfuse's /api/public/otel/* too) and health authenticate with project keys (or need none) and skip the
// proxy entirely, which also keeps it (and any session lookup) off the ingest hot path; the CI gate
// and code contract, and the runtime's wording set, guard themselves (admin secret, read key or a member's session,
// server/http/read-auth.ts); everything else is the dashboard and its APIs. The skipped paths get
// their (static) security headers from next.config.js.
export const config = {
  matcher: ["/((?!_next/static|_next/image|icon.png|api/v1/ingest|api/v1/gate|api/v1/codes/contract|api/v1/wordings|v1/|api/public/otel/|api/health).*)"],
};
