import { overviewRoute } from "@/server/routes/overview";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = overviewRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
