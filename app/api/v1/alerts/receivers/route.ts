import { alertReceiversRoute } from "@/server/routes/alert-rules";
import { alertReceiverCreate } from "@/server/routes/alert-receivers";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = alertReceiversRoute.GET;
export const POST = alertReceiverCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
