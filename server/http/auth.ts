import type { Executor } from "@/db/client";
import { verifyKey } from "@/db/keys";
import { config } from "../config";
import { ApiError } from "./api-error";
import { verifyThrottled } from "./auth-throttle";
import { clientAddress } from "./node-server";

/** An authenticated ingest request: its project, and the key it presented (its slot account). */
export interface IngestAuth {
  projectId: string;
  key: string;
}

/**
 * The ingest key a request presents: `Authorization: Bearer`, `x-faultline-key`, or the password of
 * HTTP Basic (Langfuse's span processor sends `publicKey:secretKey`: its secret key is the key).
 */
function presentedIngestKey(req: Request): string | undefined {
  const header = req.headers.get("authorization");
  const basic = header?.match(/^Basic\s+(\S+)\s*$/i)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, "base64").toString("utf8");
    return decoded.includes(":") ? decoded.slice(decoded.indexOf(":") + 1) : undefined;
  }
  return header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1] ?? req.headers.get("x-faultline-key")?.trim();
}

/**
 * The project of the presented ingest key (`Authorization: Bearer`, `x-faultline-key` or the Basic
 * password). Wrong keys are throttled by the key presented and by address (see `verifyThrottled`):
 * a key that keeps failing gets 429, and so do further failures from an address that sent too many,
 * but a valid key is always let in. A key of an archived project is refused with 403.
 */
export async function authenticateIngest(req: Request, db: Executor): Promise<IngestAuth> {
  const client = clientAddress(req, config().trustProxy);
  const presented = presentedIngestKey(req);
  if (!presented) {
    throw new ApiError("unauthorized", "missing ingest key: send Authorization: Bearer <key>", undefined, {
      "WWW-Authenticate": 'Bearer realm="faultline"',
    });
  }
  const verified = await verifyThrottled("ingest key", { presented, client }, () => verifyKey(db, presented));
  if (!verified) {
    throw new ApiError("unauthorized", "invalid or revoked ingest key", undefined, { "WWW-Authenticate": 'Bearer realm="faultline"' });
  }
  if (verified.scope !== "ingest") throw new ApiError("forbidden", "this is a read key: it cannot ingest; send an ingest key");
  // Archived projects keep their data readable and take no more: a clear 403, not a wrong-key 401.
  if (verified.archived) throw new ApiError("forbidden", `project ${verified.projectId} is archived and takes no new data; a project owner can restore it under Settings → Projects`);
  return { projectId: verified.projectId, key: presented };
}
