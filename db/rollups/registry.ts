import { attemptCounts } from "../schema/attempt-counts";
import { codeCatalogue } from "../schema/codes";
import { conformance } from "../schema/conformance-counts";
import { delayHistograms } from "../schema/delay-histograms";
import { emitterRollup } from "../schema/emitter-counts";
import { emitterDropsRollup } from "../schema/emitter-drops";
import { errorRollups } from "../schema/error-rollups";
import { runStatsRollup } from "../schema/run-stats";
import { runToolsRollup } from "../schema/run-tools";
import { spanRollups } from "../schema/span-rollups";
import { toldStepCountsRollup } from "../schema/told-step-counts";
import type { AnyRollup } from "./define-rollup";

/** Every rollup kept at ingest. */
export const ROLLUPS: readonly AnyRollup[] = [
  spanRollups,
  delayHistograms,
  attemptCounts,
  errorRollups,
  codeCatalogue,
  runStatsRollup,
  conformance,
  runToolsRollup,
  emitterRollup,
  emitterDropsRollup,
  toldStepCountsRollup,
];
