import { driftFindingsRoute } from "@/server/routes/drift";

export const dynamic = "force-dynamic";

export const GET = driftFindingsRoute.GET;
