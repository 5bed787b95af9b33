import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** What the start of a sign-in hands to its callback, through the browser. */
export interface OidcFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where to land once signed in (already sanitised). */
  next: string;
  /** The exact redirect URI the authorization request named: the token request must repeat it. */
  redirectUri: string;
  expiresAt: number;
}

/** The cookie's name; it is sent only to the sign-in endpoints (its path). */
export const FLOW_COOKIE = "faultline_oidc";
const FLOW_PATH = "/api/v1/auth/oidc";
/** Time to sign in at the provider before the attempt expires. */
export const FLOW_TTL_MS = 10 * 60_000;

// Derived from the client secret, which every node has: any node can open what another sealed, and
// nothing is kept in memory or in the database between the two requests.
const keyOf = (secret: string) => Buffer.from(hkdfSync("sha256", secret, "faultline", "oidc flow cookie v1", 32));

/**
 * Seals the flow for the browser to carry: AES-256-GCM, so the browser can neither read the PKCE
 * verifier nor change `next` or the state without the cookie being refused.
 */
export function sealFlow(flow: OidcFlow, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(flow), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

const isFlow = (v: unknown): v is OidcFlow => {
  if (typeof v !== "object" || v === null) return false;
  const f = v as Record<string, unknown>;
  return ["state", "nonce", "codeVerifier", "next", "redirectUri"].every((k) => typeof f[k] === "string") && typeof f.expiresAt === "number";
};

/** The flow a sealed cookie carries; null when absent, altered, sealed with another secret, or expired at `now`. */
export function openFlow(sealed: string | null, secret: string, now: number): OidcFlow | null {
  if (!sealed || sealed.length > 4096) return null;
  const raw = Buffer.from(sealed, "base64url");
  if (raw.length < 29) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const flow: unknown = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"));
    return isFlow(flow) && flow.expiresAt > now ? flow : null;
  } catch {
    return null;
  }
}

/** The flow cookie's value in a request, if any. */
export function flowCookieOf(req: Request): string | null {
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === FLOW_COOKIE) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * Set-Cookie for a sealed flow (`null`: delete it). HttpOnly: page scripts never see it. SameSite=Lax:
 * the provider's redirect back is a top-level GET navigation, on which Lax cookies are sent.
 */
export function flowCookieHeader(sealed: string | null, secure: boolean): string {
  const lifetime = sealed === null ? "Max-Age=0" : `Max-Age=${FLOW_TTL_MS / 1000}`;
  return `${FLOW_COOKIE}=${sealed ?? ""}; Path=${FLOW_PATH}; HttpOnly; SameSite=Lax; ${lifetime}${secure ? "; Secure" : ""}`;
}
