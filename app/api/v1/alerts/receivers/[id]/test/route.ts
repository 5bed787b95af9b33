import { alertReceiverTest } from "@/server/routes/alert-receiver-test";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const POST = alertReceiverTest;
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
