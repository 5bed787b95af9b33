import { oidcCallback } from "@/server/routes/auth-oidc";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = oidcCallback;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
