import { authProvidersSchema } from "@/lib/contracts/auth-providers";
import { config } from "../config";
import { route } from "../http/route";

/**
 * `GET /api/v1/auth/providers`: password sign-in always; single sign-on with its button label when
 * configured. Public: the sign-in page asks before anyone is signed in.
 */
export const authProvidersRoute = route(async () => {
  const oidc = config().oidc;
  return Response.json(authProvidersSchema.parse({ password: true, oidc: oidc ? { label: oidc.label } : null }));
});
