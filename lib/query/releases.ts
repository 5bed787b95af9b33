import { releasesEndpoints } from "@/lib/api/read/releases";
import { endpointQuery } from "./endpoint-query";

/** The project's releases and the runs on each per day over the last `days`. */
export const releasesOptions = (project: string, days = 30) => endpointQuery(releasesEndpoints.releases, { params: {}, search: { project, days: String(days) } });

/** One release's health against the release before it. */
export const releaseHealthOptions = (project: string, release: string) => endpointQuery(releasesEndpoints.releaseHealth, { params: { release }, search: { project } });
