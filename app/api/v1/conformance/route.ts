import { conformanceRoute } from "@/server/routes/conformance";

export const dynamic = "force-dynamic";

export const GET = conformanceRoute.GET;
