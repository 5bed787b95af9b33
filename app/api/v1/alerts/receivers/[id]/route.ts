import { alertReceiverEdit } from "@/server/routes/alert-receiver-edit";
import { alertReceiverDelete } from "@/server/routes/alert-receivers";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const DELETE = alertReceiverDelete;
export const PATCH = alertReceiverEdit;
export const { GET, POST, PUT, OPTIONS } = otherMethods("DELETE", "PATCH");
