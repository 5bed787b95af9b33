import { overviewQuerySchema, overviewSchema } from "@/lib/contracts/overview";
import { setupQuerySchema, setupSchema } from "@/lib/contracts/projects";
import { defineEndpoint } from "../endpoint";

/** The overview and the first-run setup (the project list and the Tools and Codes pages' reads have their own groups). */
export const dashboardEndpoints = {
  overview: defineEndpoint({ id: "overview", path: "/api/v1/overview", query: overviewQuerySchema, response: overviewSchema }),
  setup: defineEndpoint({ id: "setup", path: "/api/v1/setup", query: setupQuerySchema, response: setupSchema }),
} as const;
