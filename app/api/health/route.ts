import { healthRoute } from "@/server/http/health";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = healthRoute;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
