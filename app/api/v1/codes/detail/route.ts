import { codeDetailRoute } from "@/server/routes/code-detail";

export const dynamic = "force-dynamic";

export const GET = codeDetailRoute.GET;
