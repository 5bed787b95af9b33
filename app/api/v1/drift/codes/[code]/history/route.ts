import { codeReleaseHistoryRoute } from "@/server/routes/drift";

export const dynamic = "force-dynamic";

export const GET = codeReleaseHistoryRoute.GET;
