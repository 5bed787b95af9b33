import { z } from "zod";

/** `GET /api/v1/auth/providers`: the sign-in methods this instance offers, for the sign-in page. */
export const authProvidersSchema = z.object({
  password: z.literal(true),
  /** Single sign-on (OpenID Connect), when configured: the button reads "Sign in with <label>". */
  oidc: z.object({ label: z.string() }).nullable(),
});
export type AuthProviders = z.infer<typeof authProvidersSchema>;
