import { dashboardEndpoints } from "./read/dashboard";
import { projectsEndpoints } from "./read/projects";
import { toolsEndpoints } from "./read/tools";
import { toolDetailEndpoints } from "./read/tool-detail";
import { codesEndpoints } from "./read/codes";
import { settingsEndpoints } from "./read/settings";
import { conformanceEndpoints } from "./read/conformance";
import { driftEndpoints } from "./read/drift";
import { driftSummaryEndpoints } from "./read/drift-summary";
import { runsEndpoints } from "./read/runs";
import { runTimelineEndpoints } from "./read/run-timeline";
import { toldEndpoints } from "./read/told";
import { searchEndpoints } from "./read/search";
import { textSearchEndpoints } from "./read/text-search";
import { alertsEndpoints } from "./read/alerts";
import { classificationEndpoints } from "./read/classification";
import { issuesEndpoints } from "./read/issues";
import { issueCountsEndpoints } from "./read/issue-counts";
import { releasesEndpoints } from "./read/releases";
import { authProvidersEndpoints } from "./read/auth-providers";
import { traceLinkEndpoints } from "./read/trace-links";
import { savedViewsEndpoints } from "./read/saved-views";
import { slosEndpoints } from "./read/slos";
import { experimentsEndpoints } from "./read/experiments";
import { columnChoicesEndpoints } from "./read/column-choices";

/**
 * Every read endpoint of the dashboard API (docs/architecture.md lists them with their pages), for the
 * server's routes and the tests. Browser code imports its own group from `./read/` instead: this
 * object would put every contract's schemas in every page's first-load JavaScript.
 */
export const endpoints = {
  ...dashboardEndpoints,
  ...projectsEndpoints,
  ...toolsEndpoints,
  ...toolDetailEndpoints,
  ...codesEndpoints,
  ...settingsEndpoints,
  ...conformanceEndpoints,
  ...driftEndpoints,
  ...driftSummaryEndpoints,
  ...runsEndpoints,
  ...runTimelineEndpoints,
  ...toldEndpoints,
  ...searchEndpoints,
  ...textSearchEndpoints,
  ...alertsEndpoints,
  ...classificationEndpoints,
  ...issuesEndpoints,
  ...issueCountsEndpoints,
  ...releasesEndpoints,
  ...authProvidersEndpoints,
  ...traceLinkEndpoints,
  ...savedViewsEndpoints,
  ...slosEndpoints,
  ...experimentsEndpoints,
  ...columnChoicesEndpoints,
} as const;
