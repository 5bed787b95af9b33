import { dashboardEndpoints } from "./read/dashboard";
import { settingsEndpoints } from "./read/settings";
import { conformanceEndpoints } from "./read/conformance";
import { driftEndpoints } from "./read/drift";
import { runsEndpoints } from "./read/runs";
import { toldEndpoints } from "./read/told";
import { searchEndpoints } from "./read/search";
import { alertsEndpoints } from "./read/alerts";
import { classificationEndpoints } from "./read/classification";
import { issuesEndpoints } from "./read/issues";
import { releasesEndpoints } from "./read/releases";
import { authProvidersEndpoints } from "./read/auth-providers";
import { traceLinkEndpoints } from "./read/trace-links";
import { savedViewsEndpoints } from "./read/saved-views";
import { slosEndpoints } from "./read/slos";
import { experimentsEndpoints } from "./read/experiments";

/**
 * Every read endpoint of the dashboard API (docs/architecture.md lists them with their pages), for the
 * server's routes and the tests. Browser code imports its own group from `./read/` instead: this
 * object would put every contract's schemas in every page's first-load JavaScript.
 */
export const endpoints = {
  ...dashboardEndpoints,
  ...settingsEndpoints,
  ...conformanceEndpoints,
  ...driftEndpoints,
  ...runsEndpoints,
  ...toldEndpoints,
  ...searchEndpoints,
  ...alertsEndpoints,
  ...classificationEndpoints,
  ...issuesEndpoints,
  ...releasesEndpoints,
  ...authProvidersEndpoints,
  ...traceLinkEndpoints,
  ...savedViewsEndpoints,
  ...slosEndpoints,
  ...experimentsEndpoints,
} as const;
