import { sloDetailQuerySchema, sloDetailSchema, slosQuerySchema, slosSchema } from "@/lib/contracts/slos";
import { defineEndpoint } from "../endpoint";

/** SLOs (docs/slos.md): each with its budget and burn rates; one with its budget over time and the failures that spent it. */
export const slosEndpoints = {
  slos: defineEndpoint({ id: "slos", path: "/api/v1/slos", query: slosQuerySchema, response: slosSchema }),
  sloDetail: defineEndpoint({ id: "slo-detail", path: "/api/v1/slos/detail", query: sloDetailQuerySchema, response: sloDetailSchema }),
} as const;
