import { releaseHealthQuerySchema, releaseHealthSchema, releasesQuerySchema, releasesSchema } from "@/lib/contracts/releases";
import { defineEndpoint } from "../endpoint";

/** Releases and one release's health. */
export const releasesEndpoints = {
  releases: defineEndpoint({ id: "releases", path: "/api/v1/releases", query: releasesQuerySchema, response: releasesSchema }),
  releaseHealth: defineEndpoint<typeof releaseHealthQuerySchema, typeof releaseHealthSchema, "release">({
    id: "release-health",
    path: "/api/v1/releases/:release",
    query: releaseHealthQuerySchema,
    response: releaseHealthSchema,
  }),
} as const;
