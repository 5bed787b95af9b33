import { issueCountsRoute } from "@/server/routes/issues";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = issueCountsRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
