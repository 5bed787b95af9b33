import { releasesRoute } from "@/server/routes/releases";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = releasesRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
