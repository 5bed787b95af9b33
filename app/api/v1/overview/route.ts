import { overviewRoute } from "@/server/routes/overview";

export const dynamic = "force-dynamic";

export const GET = overviewRoute.GET;
