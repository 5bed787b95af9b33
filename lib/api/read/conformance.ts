import { conformanceQuerySchema, conformanceSchema } from "@/lib/contracts/conformance";
import { defineEndpoint } from "../endpoint";

/** Per-emitter conformance. */
export const conformanceEndpoints = {
  conformance: defineEndpoint({ id: "conformance", path: "/api/v1/conformance", query: conformanceQuerySchema, response: conformanceSchema }),
} as const;
