import { searchRoute } from "@/server/routes/search";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = searchRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
