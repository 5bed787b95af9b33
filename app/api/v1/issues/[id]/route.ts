import { issueDetailRoute, issuePatch } from "@/server/routes/issues";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = issueDetailRoute.GET;
export const PATCH = issuePatch;
export const { POST, PUT, DELETE, OPTIONS } = otherMethods("GET", "PATCH");
