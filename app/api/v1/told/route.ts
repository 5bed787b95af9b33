import { toldRoute } from "@/server/routes/told";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = toldRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
