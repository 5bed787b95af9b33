import { authProvidersRoute } from "@/server/routes/auth-providers";
import { otherMethods } from "@/server/http/route";

export const dynamic = "force-dynamic";

export const GET = authProvidersRoute;
export const { POST, PUT, DELETE, PATCH, OPTIONS } = otherMethods("GET");
