import { conformanceRoute } from "@/server/routes/conformance";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = conformanceRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
