import { experimentDetailRoute, experimentPatch } from "@/server/routes/experiments";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = experimentDetailRoute.GET;
export const PATCH = experimentPatch;
export const { POST, PUT, DELETE, OPTIONS } = otherMethods("GET", "PATCH");
