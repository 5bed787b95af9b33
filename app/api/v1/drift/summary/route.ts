import { driftSummaryRoute } from "@/server/routes/drift";

export const dynamic = "force-dynamic";

export const GET = driftSummaryRoute.GET;
