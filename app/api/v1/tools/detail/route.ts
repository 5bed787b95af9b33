import { toolDetailRoute } from "@/server/routes/tool-detail";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = toolDetailRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
