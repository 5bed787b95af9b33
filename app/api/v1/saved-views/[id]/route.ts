import { savedViewDelete, savedViewPatch } from "@/server/routes/saved-views";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const PATCH = savedViewPatch;
export const DELETE = savedViewDelete;
export const { GET, POST, PUT, OPTIONS } = otherMethods("PATCH", "DELETE");
