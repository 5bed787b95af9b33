import { codesRoute } from "@/server/routes/codes";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = codesRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
