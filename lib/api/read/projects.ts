import { projectsSchema } from "@/lib/contracts/projects";
import { z } from "zod";
import { defineEndpoint } from "../endpoint";

/** The projects the caller can open: every filter bar's project switcher. */
export const projectsEndpoints = {
  projects: defineEndpoint({ id: "projects", path: "/api/v1/projects", query: z.object({}), response: projectsSchema }),
} as const;
