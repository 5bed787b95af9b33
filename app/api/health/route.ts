import { getStore } from "@/db/client";
import { getHealth } from "@/db/queries/get-health";
import { ApiError } from "@/lib/server/api-error";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

export const GET = route(() => {
  const health = getHealth(getStore());
  if (health.migrations.applied < health.migrations.expected) {
    throw new ApiError("unavailable", "database migrations are not all applied", undefined, { "Retry-After": "5" });
  }
  return Response.json({ status: "ok", ...health });
});
