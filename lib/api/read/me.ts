import { z } from "zod";
import { meSchema } from "@/lib/contracts/me";
import { defineEndpoint } from "../endpoint";

/** Who is signed in (every page's header reads it; apart from `../auth-endpoints`, whose member and invitation contracts it does not need). */
export const meEndpoints = {
  me: defineEndpoint({ id: "me", path: "/api/v1/auth/me", query: z.object({}), response: meSchema }),
} as const;
