import { toolsRoute } from "@/server/routes/tools";

export const dynamic = "force-dynamic";

export const GET = toolsRoute.GET;
