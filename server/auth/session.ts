import { deleteExpiredUserSessions, insertSession } from "@/db/auth/sessions";
import { config } from "../config";
import { requestAddress } from "../http/request-address";
import { getStore } from "../store";
import { sessionCookies } from "./cookies";
import { newToken, tokenHash } from "./tokens";

/**
 * Opens a session for a user (after a password or OIDC sign-in) and answers the Set-Cookie header
 * values to add to the response: `faultline_session` (HttpOnly, SameSite=Lax, Secure over HTTPS,
 * Path=/) and `faultline_csrf` (readable by the page script, SameSite=Lax, Path=/). Only the token's
 * hash is stored; the account's expired sessions are forgotten on the way.
 */
export async function startSession(userId: string, req: Request, method: "password" | "oidc"): Promise<string[]> {
  const ttl = config().sessionTtlMs;
  const token = newToken();
  const csrfToken = newToken();
  const now = Date.now();
  const store = await getStore();
  await store.transaction(async (tx) => {
    await deleteExpiredUserSessions(tx, userId, now);
    await insertSession(tx, {
      tokenHash: tokenHash(token),
      userId,
      csrfToken,
      now,
      expiresAt: now + ttl,
      address: requestAddress(req),
      userAgent: req.headers.get("user-agent")?.slice(0, 300) ?? null,
      method,
    });
  });
  return sessionCookies(token, csrfToken, req, ttl);
}

/** A response with Set-Cookie headers added (a Headers object keeps each cookie its own header line). */
export function withCookies(res: Response, cookies: readonly string[]): Response {
  for (const c of cookies) res.headers.append("Set-Cookie", c);
  return res;
}
