import { alertHistoryRoute } from "@/server/routes/alert-rules";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = alertHistoryRoute.GET;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
