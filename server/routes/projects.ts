import { getSetupInfo } from "@/db/queries/get-setup-info";
import { listProjects, listUserProjects } from "@/db/queries/list-projects";
import { endpoints } from "@/lib/api/endpoints";
import { isInstanceLevel } from "../auth/access";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** The project switcher: every project for an instance owner, else the caller's own. */
export const projectsRoute = defineRoute(endpoints.projects, async ({ caller }) =>
  caller.kind === "user" && !isInstanceLevel(caller) ? listUserProjects(await getStore(), caller.userId) : listProjects(await getStore()),
);

/** First-run information: key prefixes only; a key itself is shown once, by `npm run keys -- create`. */
export const setupRoute = defineRoute(endpoints.setup, async ({ query }) => getSetupInfo(await getStore(), query.project));
