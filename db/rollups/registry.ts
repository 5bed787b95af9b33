import { attemptCounts } from "../schema/attempt-counts";
import { callEndings } from "../schema/call-endings";
import { codeCatalogue } from "../schema/codes";
import { conformance } from "../schema/conformance-counts";
import { delayHistograms } from "../schema/delay-histograms";
import { emitterRollup } from "../schema/emitter-counts";
import { emitterDropsRollup } from "../schema/emitter-drops";
import { errorRollups } from "../schema/error-rollups";
import { runStatsRollup } from "../schema/run-stats";
import { runToolsRollup } from "../schema/run-tools";
import { runCodesRollup } from "../schema/run-codes";
import { spanRollups } from "../schema/span-rollups";
import { toldStepCountsRollup } from "../schema/told-step-counts";
import type { StoredRow } from "./compile-rollup";
import type { AnyRollup, RollupRow } from "./define-rollup";
import { RollupBatch } from "./rollup-batch";

/**
 * Every rollup kept at ingest, by the name ingest adds its rows under. This is the one list of
 * rollups, and its order is the one order everything walks them in: ingest's batches, retention, and
 * PostgreSQL's upsert, which takes rollup row locks table by table in it (any fixed order keeps
 * concurrent batches free of deadlocks, as long as every transaction uses the same one).
 */
export const ROLLUPS = {
  spanRollups,
  delayHistograms,
  attemptCounts,
  errorRollups,
  codes: codeCatalogue,
  runStats: runStatsRollup,
  conformance,
  runTools: runToolsRollup,
  runCodes: runCodesRollup,
  emitters: emitterRollup,
  drops: emitterDropsRollup,
  toldSteps: toldStepCountsRollup,
  callEndings,
} as const;

type Rollups = typeof ROLLUPS;

/** The rollups in order. */
export const ROLLUP_LIST: readonly AnyRollup[] = Object.values(ROLLUPS);

/** One in-memory batch per rollup, under the rollup's name. */
export type RollupBatches = { readonly [K in keyof Rollups]: RollupBatch<RollupRow<Rollups[K]>> };

/** A fresh batch for every rollup, in the registry's order. */
export function rollupBatches(): RollupBatches {
  const batches: Record<string, RollupBatch<StoredRow>> = {};
  for (const [name, rollup] of Object.entries(ROLLUPS)) batches[name] = new RollupBatch<StoredRow>(rollup as AnyRollup);
  // Built from ROLLUPS entry by entry, so each name holds the batch of its own rollup.
  return batches as unknown as RollupBatches;
}
