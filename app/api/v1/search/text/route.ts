import { textSearchRoute } from "@/server/routes/text-search";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = textSearchRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
