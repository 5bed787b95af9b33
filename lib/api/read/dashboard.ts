import { codeDetailQuerySchema, codeDetailSchema, codesQuerySchema, codesSchema } from "@/lib/contracts/codes";
import { overviewQuerySchema, overviewSchema } from "@/lib/contracts/overview";
import { projectsSchema, setupQuerySchema, setupSchema } from "@/lib/contracts/projects";
import { toolDetailQuerySchema, toolDetailSchema, toolsQuerySchema, toolsSchema } from "@/lib/contracts/tools";
import { z } from "zod";
import { defineEndpoint } from "../endpoint";

/** The dashboard pages' reads: overview, tools, codes, the project list and the first-run setup. */
export const dashboardEndpoints = {
  overview: defineEndpoint({ id: "overview", path: "/api/v1/overview", query: overviewQuerySchema, response: overviewSchema }),
  tools: defineEndpoint({ id: "tools", path: "/api/v1/tools", query: toolsQuerySchema, response: toolsSchema }),
  // The tool and the code travel in the query string: their names may hold any character, '/' too.
  toolDetail: defineEndpoint({ id: "tool-detail", path: "/api/v1/tools/detail", query: toolDetailQuerySchema, response: toolDetailSchema }),
  codes: defineEndpoint({ id: "codes", path: "/api/v1/codes", query: codesQuerySchema, response: codesSchema }),
  codeDetail: defineEndpoint({ id: "code-detail", path: "/api/v1/codes/detail", query: codeDetailQuerySchema, response: codeDetailSchema }),
  projects: defineEndpoint({ id: "projects", path: "/api/v1/projects", query: z.object({}), response: projectsSchema }),
  setup: defineEndpoint({ id: "setup", path: "/api/v1/setup", query: setupQuerySchema, response: setupSchema }),
} as const;
