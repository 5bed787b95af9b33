import type { Store } from "@/db/client";
import { verifyKey } from "@/db/keys";
import { ApiError } from "./api-error";

/** The project of the presented ingest key (`Authorization: Bearer` or `x-faultline-key`). */
export function authenticateIngest(req: Request, store: Store): string {
  const header = req.headers.get("authorization");
  const bearer = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  const presented = bearer ?? req.headers.get("x-faultline-key")?.trim();
  if (!presented) {
    throw new ApiError("unauthorized", "missing ingest key: send Authorization: Bearer <key>", undefined, {
      "WWW-Authenticate": 'Bearer realm="faultline"',
    });
  }
  const projectId = verifyKey(store, presented);
  if (!projectId) {
    throw new ApiError("unauthorized", "invalid or revoked ingest key", undefined, { "WWW-Authenticate": 'Bearer realm="faultline"' });
  }
  return projectId;
}
