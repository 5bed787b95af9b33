import { getSetupInfo } from "@/db/queries/get-setup-info";
import { listProjects } from "@/db/queries/list-projects";
import { endpoints } from "@/lib/api/endpoints";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

export const projectsRoute = defineRoute(endpoints.projects, async () => listProjects(await getStore()));

/** First-run information: key prefixes only; a key itself is shown once, by `npm run keys -- create`. */
export const setupRoute = defineRoute(endpoints.setup, async ({ query }) => getSetupInfo(await getStore(), query.project));
