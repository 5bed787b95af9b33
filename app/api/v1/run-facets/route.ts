import { runFacetsRoute } from "@/server/routes/runs";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = runFacetsRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
