import { toolsRoute } from "@/server/routes/tools";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = toolsRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
