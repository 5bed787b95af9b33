import { createHash, timingSafeEqual } from "node:crypto";
import type { Executor } from "@/db/client";
import { looksLikeKey, verifyKey } from "@/db/keys";
import { callerOf, checkProjectRole } from "../auth/access";
import { config } from "../config";
import { ApiError } from "./api-error";
import { authThrottle, verifyThrottled } from "./auth-throttle";
import { checkHost } from "./host-check";
import { clientAddress } from "./node-server";

const digest = (value: string) => createHash("sha256").update(value).digest();
const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="faultline"' };

/** The secret sent as `Authorization: Bearer`, or as the password of HTTP Basic (as the dashboard asks for it). */
function presentedCredential(req: Request): string | null {
  const header = req.headers.get("authorization") ?? "";
  const basic = header.match(/^Basic\s+(\S+)$/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    return decoded.slice(decoded.indexOf(":") + 1);
  }
  return header.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? req.headers.get("x-faultline-key")?.trim() ?? null;
}

/**
 * Guards the CI reads (gate, code contract), which skip the dashboard's proxy so that a read key can
 * reach them: the admin secret passes, a read key passes for its own project, an ingest key is
 * refused (403: a key that leaks from a running agent must not read). Without credentials a
 * signed-in member of the project passes (any role: these are reads; 404 for anyone else), and so
 * does everyone in setup mode, as on the dashboard. Wrong admin secrets count towards the address's
 * admin-secret throttle; wrong keys are throttled by key and address (`verifyThrottled`). The proxy's `Host` check (DNS rebinding) is repeated
 * here, since these paths skip the proxy.
 */
export async function authenticateReader(req: Request, db: Executor, project: string): Promise<void> {
  const c = config();
  checkHost(req, c.allowedHosts);
  const presented = presentedCredential(req);
  if (presented === null) {
    const caller = await callerOf(req);
    if (caller === null) throw new ApiError("unauthorized", "send the admin secret or a read key (Authorization: Bearer <secret or key>), or sign in", undefined, CHALLENGE);
    await checkProjectRole(caller, project, "viewer");
    return;
  }
  const client = clientAddress(req, c.trustProxy);
  const refused = () => new ApiError("unauthorized", "invalid or revoked key (or wrong admin secret)", undefined, CHALLENGE);
  if (!looksLikeKey(presented)) {
    // The admin secret is chosen by a person and may be guessable: an address past the limit is
    // refused whatever it sends, as on every route that takes the secret (server/auth/access.ts).
    const throttle = authThrottle("admin secret", c.authMaxFailures, c.authWindowMs);
    throttle.check(client, "admin secret");
    if (c.adminSecret && timingSafeEqual(digest(presented), digest(c.adminSecret))) return;
    throttle.fail(client);
    throw refused();
  }
  // Project keys are random: throttled by key and address, and a valid key is always let in.
  const verified = await verifyThrottled("key", { presented, client }, () => verifyKey(db, presented));
  if (!verified) throw refused();
  if (verified.scope !== "read") throw new ApiError("forbidden", "this is an ingest key: it cannot read; create a read key with `npm run keys -- create --read`");
  if (verified.projectId !== project) throw new ApiError("forbidden", `this read key belongs to project ${verified.projectId}, not ${project}`);
}
