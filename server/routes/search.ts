import { searchProject } from "@/db/queries/search";
import { endpoints } from "@/lib/api/endpoints";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

export const searchRoute = defineRoute(endpoints.search, async ({ query, now }) => searchProject(await getStore(), query.project, query.q, now));
