// Wording-experiment assignment (docs/experiments.md), shared with the Python package: the inputs
// here, the variant the TypeScript runtime assigns written to test/vectors/assignment.json.
import { ASSIGNMENT_BUCKETS, assignVariant, assignmentBucket, fnv1a32 } from "@/lib/runtime";

/** Texts whose FNV-1a-32 both runtimes must agree on: ASCII, multi-byte UTF-8, an astral character, a long one. */
const FNV_INPUTS = ["", "a", "foobar", "fare-wording\nrun-1", "é", "e\u0301", "日本語", "\u{1F600}", "x".repeat(300)];

interface Split {
  name: string;
  experiment: string;
  variants: { id: string; weight: number }[];
  /** Buckets worth a run id each: the edges between variants, where a rounding would show. */
  edges: number[];
}

const SPLITS: Split[] = [
  { name: "50/50", experiment: "fare-wording", variants: [{ id: "control", weight: 50 }, { id: "pick-another", weight: 50 }], edges: [0, 4999, 5000, 9999] },
  { name: "code-side equal weights 1/1", experiment: "fare-wording", variants: [{ id: "control", weight: 1 }, { id: "pick-another", weight: 1 }], edges: [4999, 5000] },
  { name: "20/80", experiment: "split", variants: [{ id: "a", weight: 20 }, { id: "b", weight: 80 }], edges: [1999, 2000] },
  { name: "three-way 34/33/33", experiment: "three-way", variants: [{ id: "a", weight: 34 }, { id: "b", weight: 33 }, { id: "c", weight: 33 }], edges: [3399, 3400, 6699, 6700] },
  { name: "four-way 10/20/30/40", experiment: "four.way_1", variants: [{ id: "v1", weight: 10 }, { id: "v2", weight: 20 }, { id: "v3", weight: 30 }, { id: "v4", weight: 40 }], edges: [999, 1000, 2999, 3000, 5999, 6000] },
  { name: "a zero-weight control is never assigned", experiment: "x", variants: [{ id: "off", weight: 0 }, { id: "on", weight: 100 }], edges: [0] },
  { name: "zero weight in the middle", experiment: "middle", variants: [{ id: "a", weight: 50 }, { id: "b", weight: 0 }, { id: "c", weight: 50 }], edges: [4999, 5000] },
  // 0.1 + 0.2 is 0.30000000000000004 in doubles: bucket 3000 falls in b. Sums must run left to right in doubles.
  { name: "fractional weights summed in doubles", experiment: "fractions", variants: [{ id: "a", weight: 0.1 }, { id: "b", weight: 0.2 }, { id: "c", weight: 0.7 }], edges: [999, 1000, 2999, 3000, 3001] },
  { name: "uneven weights 1/3 as numbers", experiment: "thirds", variants: [{ id: "a", weight: 1 }, { id: "b", weight: 2 }], edges: [3333, 3334] },
  { name: "a negative weight counts as zero", experiment: "negative", variants: [{ id: "a", weight: -5 }, { id: "b", weight: 10 }], edges: [0] },
  { name: "every weight zero assigns nothing", experiment: "none", variants: [{ id: "a", weight: 0 }, { id: "b", weight: 0 }], edges: [] },
];

/** A run id whose bucket in `experiment` is `bucket`: searched deterministically. */
function runIdAt(experiment: string, bucket: number): string {
  for (let i = 0; i < 1_000_000; i++) if (assignmentBucket(`edge-${i}`, experiment) === bucket) return `edge-${i}`;
  throw new Error(`no run id lands in bucket ${bucket} of ${experiment}`);
}

const RUN_IDS = [
  ...Array.from({ length: 30 }, (_, i) => `run-${i}`),
  "4bf92f3577b34da6a3ce929d0e0e4736", "py-run_1", "ラン-1", "run-\u{1F600}", "Zu\u0308rich", "a".repeat(128),
];

/** The assignment vector: FNV-1a values, then per split the bucket and the variant of each run id. */
export function assignmentVector() {
  return {
    buckets: ASSIGNMENT_BUCKETS,
    fnv: FNV_INPUTS.map((input) => ({ input, hash: fnv1a32(input) })),
    cases: SPLITS.map(({ name, experiment, variants, edges }) => ({
      name,
      experiment,
      variants,
      runs: [...RUN_IDS, ...edges.map((b) => runIdAt(experiment, b))].map((run_id) => ({
        run_id,
        bucket: assignmentBucket(run_id, experiment),
        variant: assignVariant(run_id, experiment, variants)?.id ?? null,
      })),
    })),
  };
}
