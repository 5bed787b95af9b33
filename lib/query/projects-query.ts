import { projectsEndpoints } from "@/lib/api/read/projects";
import { endpointQuery } from "./endpoint-query";

/** The projects the caller can open; they change rarely. */
export const projectsQuery = () => ({ ...endpointQuery(projectsEndpoints.projects, { params: {}, search: {} }), staleTime: 300_000 });
