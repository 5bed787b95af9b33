import { getReleaseHealth } from "@/db/releases/get-release-health";
import { listReleases } from "@/db/releases/list-releases";
import { endpoints } from "@/lib/api/endpoints";
import { releaseParamSchema } from "@/lib/contracts/releases";
import { ApiError } from "../http/api-error";
import { defineRoute } from "../http/define-route";
import { getStore } from "../store";

/** `GET /api/v1/releases`: the project's releases in drift's order and the share of runs on each per day. */
export const releasesRoute = defineRoute(endpoints.releases, async ({ query }) => listReleases(await getStore(), query, Date.now()));

/** `GET /api/v1/releases/:release`: one release's tools and issues against the release before it. */
export const releaseHealthRoute = defineRoute(
  endpoints.releaseHealth,
  async ({ query, params }) => {
    const health = await getReleaseHealth(await getStore(), query.project, params.release, Date.now());
    if (!health) throw new ApiError("not_found", `no release ${params.release} in project ${query.project}`);
    return health;
  },
  { params: { release: releaseParamSchema } },
);
