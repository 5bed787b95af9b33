import { runTimelineRoute } from "@/server/routes/runs";

export const dynamic = "force-dynamic";

export const GET = runTimelineRoute.GET;
