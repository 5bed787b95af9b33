import { alertReceiverDelete } from "@/server/routes/alert-receivers";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const DELETE = alertReceiverDelete;
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");
