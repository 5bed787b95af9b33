import { isIP } from "node:net";
import type { Executor } from "@/db/client";
import { createSetupToken } from "@/db/auth/setup-tokens";
import { tokenHash, newToken } from "./tokens";

/** A setup link works for a day: long enough to find the log line, short enough not to linger in it. */
export const SETUP_LINK_TTL_MS = 24 * 3_600_000;

/** Issues a one-time setup link (only the token's hash is stored); older links stay valid until they expire. */
export async function issueSetupLink(db: Executor, baseUrl: string, now: number = Date.now()): Promise<{ url: string; expiresAt: number }> {
  const token = newToken();
  const expiresAt = now + SETUP_LINK_TTL_MS;
  await createSetupToken(db, tokenHash(token), now, expiresAt);
  return { url: `${baseUrl.replace(/\/+$/, "")}/setup?token=${token}`, expiresAt };
}

/**
 * The address a person opens the dashboard by: FAULTLINE_PUBLIC_URL when set; else the address the
 * server listens on, where "every interface" becomes the first FAULTLINE_ALLOWED_HOSTS name (or
 * localhost), since 0.0.0.0 is not an address a browser can open.
 */
export function dashboardBaseUrl(options: { publicUrl: string; allowedHosts: readonly string[]; address: string | null; port: number }): string {
  if (options.publicUrl) return options.publicUrl.replace(/\/+$/, "");
  const a = options.address;
  const wildcard = a === null || a === "0.0.0.0" || a === "::" || a === "";
  const named = options.allowedHosts.find((h) => h !== "*");
  const host = wildcard ? (named ?? "localhost") : a.startsWith("::ffff:") ? a.slice(7) : a;
  return `http://${isIP(host) === 6 ? `[${host}]` : host}:${options.port}`;
}
