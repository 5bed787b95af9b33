import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { NextResponse, type NextRequest } from "next/server";
import { config as serverConfig } from "./server/config";
import { authThrottle } from "./server/http/auth-throttle";
import { hostAllowed, misdirected } from "./server/http/host-check";
import { clientAddress } from "./server/http/node-server";

const digest = (value: string) => createHash("sha256").update(value).digest();

function presentedSecret(req: NextRequest): string | null {
  const header = req.headers.get("authorization") ?? "";
  const basic = header.match(/^Basic\s+(\S+)$/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    return decoded.slice(decoded.indexOf(":") + 1);
  }
  return header.match(/^Bearer\s+(\S+)$/i)?.[1] ?? null;
}

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

/**
 * When FAULTLINE_ADMIN_SECRET is set, the dashboard asks for it (HTTP Basic, any user name). Wrong
 * secrets are counted per client address; past FAULTLINE_AUTH_MAX_FAILURES in the window the
 * address gets 429 with Retry-After, whatever it sends, until the window ends.
 */
function adminDenied(req: NextRequest): NextResponse | null {
  const c = serverConfig();
  const secret = c.adminSecret;
  if (!secret) return null;
  const client = clientAddress(req, c.trustProxy);
  const throttle = authThrottle("admin secret", c.authMaxFailures, c.authWindowMs);
  const wait = throttle.blockedFor(client);
  if (wait > 0) {
    return errorAnswer({ code: "rate_limited", message: "too many failed admin secret attempts from this address; retry later", headers: { "Retry-After": String(wait) } }, 429);
  }
  const presented = presentedSecret(req);
  if (presented !== null && timingSafeEqual(digest(presented), digest(secret))) return null;
  // Asking without credentials is how a browser starts; only a wrong secret counts as a failure.
  if (presented !== null) throttle.fail(client);
  return NextResponse.json(
    { error: { code: "unauthorized", message: "this Faultline requires the admin secret" } },
    { status: 401, headers: { "WWW-Authenticate": 'Basic realm="faultline", charset="UTF-8"' } },
  );
}

/**
 * Every dashboard request: the `Host` check (421 for a name not served here: DNS rebinding), the
 * admin secret check, and a per-request nonce in the CSP.
 */
export function proxy(req: NextRequest): NextResponse {
  const nonce = randomBytes(16).toString("base64");
  const csp = contentSecurityPolicy(nonce);
  const denied = hostAllowed(req.headers.get("host"), serverConfig().allowedHosts) ? adminDenied(req) : errorAnswer(misdirected(), 421);
  if (denied) {
    denied.headers.set("Content-Security-Policy", csp);
    return denied;
  }
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set("x-nonce", nonce);
  // app/not-found.tsx names what is missing (a tool, a project) from the address asked for.
  requestHeaders.set("x-faultline-url", req.nextUrl.pathname + req.nextUrl.search);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  res.headers.set("Content-Security-Policy", csp);
  return res;
}

// Ingest and health authenticate with project keys (or need none) and skip the proxy entirely, which
// also keeps it off the ingest hot path; the CI gate and code contract guard themselves (admin secret
// or read key, server/http/read-auth.ts); everything else is the dashboard and its read APIs. The
// skipped paths get their (static) security headers from next.config.js.
export const config = {
  matcher: ["/((?!_next/static|_next/image|icon.png|api/v1/ingest|api/v1/gate|api/v1/codes/contract|v1/traces|api/health).*)"],
};
