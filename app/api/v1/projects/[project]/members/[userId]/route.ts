import { memberDelete, memberPatch } from "@/server/routes/members";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const PATCH = memberPatch;
export const DELETE = memberDelete;
export const { GET, POST, PUT, OPTIONS } = otherMethods("PATCH", "DELETE");
