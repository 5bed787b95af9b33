import { EXPERIMENT_ALPHA, type Experiment, type ExperimentDetail } from "@/lib/contracts/experiments";
import { variantStats, variantSums, type VariantCount } from "./stats";
import { comparisons, verdictOf } from "./verdict";

/** An experiment with its per-variant results, comparisons and verdict, from its told counts. */
export function experimentDetail(experiment: Experiment, counts: readonly VariantCount[], alpha = EXPERIMENT_ALPHA): ExperimentDetail {
  const sums = variantSums(experiment.variants.map((v) => v.id), counts);
  return {
    experiment,
    stats: variantStats(sums, alpha),
    comparisons: comparisons(sums, alpha).map((c) => ({ ...c, interval: [finite(c.interval[0]), finite(c.interval[1])] })),
    verdict: experiment.state === "draft" ? { kind: "collecting", variant: null, metric: null, message: "not started" } : verdictOf(sums, experiment.guards, alpha),
    alpha,
  };
}

// JSON has no infinity: an unbounded side is sent as the largest finite number of its sign.
const finite = (x: number) => (Number.isFinite(x) ? x : x > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE);
