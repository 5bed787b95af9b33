import { meRoute } from "@/server/routes/auth";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = meRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
