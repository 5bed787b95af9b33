import { keyRevoke } from "@/server/routes/project-keys";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const DELETE = keyRevoke;
export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");
