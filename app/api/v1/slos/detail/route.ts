import { sloDetailRoute } from "@/server/routes/slos";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = sloDetailRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
