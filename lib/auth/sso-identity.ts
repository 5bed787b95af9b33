import type { SsoErrorCode } from "./sso-errors";

/** Who the provider says signed in, reduced to what Faultline keeps. */
export interface SsoIdentity {
  /** The provider's stable id for the person (`sub`); with the issuer, the identity's key. */
  subject: string;
  /** Lowercased, like every email Faultline stores. */
  email: string;
  /** For a new account: the provider's name for the person, else the email's local part. */
  name: string;
}

/** An identity Faultline accepts, or why not (and the email, when the provider gave one). */
export type SsoIdentityResult = { ok: true; identity: SsoIdentity } | { ok: false; code: Extract<SsoErrorCode, "sso_email_missing" | "sso_email_unverified">; email: string | null };

const MAX_EMAIL = 320;
const MAX_NAME = 200;

const text = (value: unknown): string | null => {
  if (typeof value !== "string") return null;
  const cleaned = value.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return cleaned === "" ? null : cleaned;
};

/**
 * Checks the claims of a validated ID token (merged with UserInfo): accounts are matched by email,
 * so only an address the provider itself verified (`email_verified` exactly `true`, not `"true"`)
 * may sign anyone in; otherwise whoever typed someone else's address at the provider would become
 * them here.
 */
export function ssoIdentityFromClaims(claims: Readonly<Record<string, unknown>>): SsoIdentityResult {
  const raw = text(claims.email);
  const email = raw && raw.length <= MAX_EMAIL && /^[^\s@]+@[^\s@]+$/.test(raw) ? raw.toLowerCase() : null;
  if (email === null) return { ok: false, code: "sso_email_missing", email: null };
  if (claims.email_verified !== true) return { ok: false, code: "sso_email_unverified", email };
  const subject = typeof claims.sub === "string" ? claims.sub : "";
  const given = [text(claims.given_name), text(claims.family_name)].filter((v) => v !== null).join(" ");
  const name = text(claims.name) ?? text(claims.preferred_username) ?? (given === "" ? null : given) ?? email.slice(0, email.indexOf("@"));
  return { ok: true, identity: { subject, email, name: name.slice(0, MAX_NAME) } };
}
