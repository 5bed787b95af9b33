import { sloDelete, sloPatch } from "@/server/routes/slos";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const PATCH = sloPatch;
export const DELETE = sloDelete;
export const { GET, POST, PUT, OPTIONS } = otherMethods("PATCH", "DELETE");
