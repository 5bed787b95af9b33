import { savedViewCreate, savedViewsRoute } from "@/server/routes/saved-views";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = savedViewsRoute.GET;
export const POST = savedViewCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
