import { getStore } from "@/server/store";
import { getHealth } from "@/db/queries/get-health";
import { ApiError } from "@/server/http/api-error";
import { otherMethods, route } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route(() => {
  const health = getHealth(getStore());
  if (health.migrations.applied < health.migrations.expected) {
    throw new ApiError("unavailable", "database migrations are not all applied", undefined, { "Retry-After": "5" });
  }
  return Response.json({ status: "ok", ...health });
});
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
