import { codesRoute } from "@/server/routes/codes";

export const dynamic = "force-dynamic";

export const GET = codesRoute.GET;
