import { createHash, randomBytes } from "node:crypto";

/** A new secret for a cookie or a one-time link: 256 random bits, base64url (43 characters). */
export const newToken = (): string => randomBytes(32).toString("base64url");

/** What the database stores instead of a token: its SHA-256 (hex). A leaked table opens nothing. */
export const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");

/**
 * Setup and invitation links are opened again after they were used or expired: their failures are
 * throttled at this many times FAULTLINE_AUTH_MAX_FAILURES (see verifyThrottled), keys at once.
 */
export const LINK_LIMIT_FACTOR = 10;
