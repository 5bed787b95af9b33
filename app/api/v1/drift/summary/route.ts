import { driftSummaryRoute } from "@/server/routes/drift";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = driftSummaryRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
