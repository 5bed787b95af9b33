import { runsRoute } from "@/server/routes/runs";

export const dynamic = "force-dynamic";

export const GET = runsRoute.GET;
