import { authProvidersSchema } from "@/lib/contracts/auth-providers";
import { z } from "zod";
import { defineEndpoint } from "../endpoint";

/** The sign-in page's single sign-on providers. */
export const authProvidersEndpoints = {
  authProviders: defineEndpoint({ id: "auth-providers", path: "/api/v1/auth/providers", query: z.object({}), response: authProvidersSchema }),

} as const;
