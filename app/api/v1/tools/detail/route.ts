import { toolDetailRoute } from "@/server/routes/tool-detail";

export const dynamic = "force-dynamic";

export const GET = toolDetailRoute.GET;
