import { keyCreate, projectKeysRoute } from "@/server/routes/project-keys";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = projectKeysRoute.GET;
export const POST = keyCreate;
export const { PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET", "POST");
