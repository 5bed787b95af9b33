import { codeDetailQuerySchema, codeDetailSchema, codesQuerySchema, codesSchema } from "@/lib/contracts/codes";
import { defineEndpoint } from "../endpoint";

/** The Codes page and one code's page. */
export const codesEndpoints = {
  codes: defineEndpoint({ id: "codes", path: "/api/v1/codes", query: codesQuerySchema, response: codesSchema }),
  // The code travels in the query string: it may hold any character, '/' too.
  codeDetail: defineEndpoint({ id: "code-detail", path: "/api/v1/codes/detail", query: codeDetailQuerySchema, response: codeDetailSchema }),
} as const;
