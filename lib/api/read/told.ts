import { toldAnswerSchema, toldQuerySchema } from "@/lib/contracts/told";
import { defineEndpoint } from "../endpoint";

/** What models did after being told errors. */
export const toldEndpoints = {
  // What models did after being told errors; the code and tool travel in the query string.
  told: defineEndpoint({ id: "told", path: "/api/v1/told", query: toldQuerySchema, response: toldAnswerSchema }),
} as const;
