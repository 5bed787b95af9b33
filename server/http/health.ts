import { getHealth } from "@/db/queries/get-health";
import { noteStorageFailure, publicStorageReason, storageFaultKind, storageHealth } from "../storage-fault";
import { getStore } from "../store";
import { ApiError } from "./api-error";
import { route } from "./route";

/**
 * `GET /api/health`: `200 {"status":"ok","database":"ok","dialect":…,"migrations":…}` (and the pool's
 * state on PostgreSQL) when the database answers,
 * takes writes and passed its last integrity check; otherwise `503 {"status":"degraded","database":
 * <read_only|full|io_error|cannot_open|unreachable|corrupt>,"reason":…,"since":…}` so that a monitor keyed on the
 * status code alerts, and the body says what to do. Reads from the database (no check of its own
 * runs here: the checks run on a schedule, server/jobs/health-check.ts).
 */
export const healthRoute = route(async () => {
  let health;
  try {
    health = await getHealth(await getStore());
  } catch (error) {
    const kind = storageFaultKind(error);
    if (kind === null || kind === "busy") throw error;
    noteStorageFailure(error);
    return Response.json({ status: "degraded", database: kind, reason: publicStorageReason(kind) }, { status: 503 });
  }
  if (health.migrations.applied < health.migrations.expected) {
    throw new ApiError("unavailable", "database migrations are not all applied", undefined, { "Retry-After": "5" });
  }
  const storage = storageHealth();
  if (storage.status === "ok") return Response.json({ status: "ok", ...health });
  return Response.json(
    { status: "degraded", database: storage.database, reason: storage.reason, since: new Date(storage.since).toISOString(), migrations: health.migrations },
    { status: 503 },
  );
});
