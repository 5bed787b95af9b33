import { createHash, randomBytes } from "node:crypto";

/** A new secret for a cookie or a one-time link: 256 random bits, base64url (43 characters). */
export const newToken = (): string => randomBytes(32).toString("base64url");

/** What the database stores instead of a token: its SHA-256 (hex). A leaked table opens nothing. */
export const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");
