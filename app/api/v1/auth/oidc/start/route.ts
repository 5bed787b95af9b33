import { oidcStart } from "@/server/routes/auth-oidc";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = oidcStart;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
