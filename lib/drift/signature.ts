import type { DriftSignature, Mix, ReleaseKind } from "@/lib/contracts/drift";
import { histogramQuantile } from "./delays";
import { TOP_TOLD_SHAPES } from "./thresholds";

export const SIGNATURE_DIMS = ["error_class", "retryable", "outcome", "decision"] as const;
export type SignatureDim = (typeof SIGNATURE_DIMS)[number];

/** value → count for each categorical dimension. Unknown (null) values are not counted. */
export type DimCounts = Record<SignatureDim, Record<string, number>>;

export const emptyDimCounts = (): DimCounts => ({ error_class: {}, retryable: {}, outcome: {}, decision: {} });

/** Everything accumulated for one (code, tool, release); the input of every drift rule. */
export interface CodeAccumulator {
  code: string;
  tool: string;
  release: string;
  releaseKind: ReleaseKind;
  spans: number;
  errors: number;
  /** Distinct calls (run_id, call_id) that carried the code. */
  calls: number;
  /** Of those, calls where a later attempt succeeded. */
  recovered: number;
  /** Spans and final errors whose code classification set, a project's rule or the built-in pack (absent: none). */
  ruled?: number;
  firstSeen: number;
  lastSeen: number;
  /** Counted per attempt (tool-call spans). */
  attempts: DimCounts;
  /** Counted per final error (tool_errors). */
  finalErrors: DimCounts;
  /** Counted per attempt where a classification rule set the value (never judged as drift; absent: none). */
  ruleSet?: DimCounts;
  /** Quantised retry_after (ms) → count. */
  retryAfter: Map<number, number>;
  /** True when `retryAfter` holds only the median (a contract document's side): its p90 is unknown, not the median. */
  retryAfterMedianOnly?: boolean;
  told: Record<string, number>;
  exampleRunIds: string[];
}

/** The retryable dimension stores these two words; unknown retryability is not counted. */
export const retryableValue = (v: boolean) => (v ? "retryable" : "permanent");

function toMix(counts: Record<string, number>, basis: Mix["basis"]): Mix {
  const total = Object.values(counts).reduce((s, c) => s + c, 0);
  const entries = Object.entries(counts)
    .filter(([, c]) => c > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([value, count]) => ({ value, count, share: total > 0 ? count / total : 0 }));
  return { basis, total, entries };
}

/**
 * Per-attempt counts where spans carried the dimension, else the final errors: mixing the two
 * would weigh a retried call several times against a call reported once.
 */
export function dimMix(acc: CodeAccumulator, dim: SignatureDim): Mix {
  const attempts = acc.attempts[dim];
  if (Object.values(attempts).some((c) => c > 0)) return toMix(attempts, "attempts");
  const errors = acc.finalErrors[dim];
  if (Object.values(errors).some((c) => c > 0)) return toMix(errors, "errors");
  return { basis: "none", total: 0, entries: [] };
}

/** The accumulator as the code's page shows it: per attempt, what the emitter said and what rules set together. */
export function withRuleSet(acc: CodeAccumulator): CodeAccumulator {
  if (!acc.ruleSet) return acc;
  const attempts = emptyDimCounts();
  for (const dim of SIGNATURE_DIMS) {
    for (const source of [acc.attempts[dim], acc.ruleSet[dim]]) for (const [v, n] of Object.entries(source)) attempts[dim][v] = (attempts[dim][v] ?? 0) + n;
  }
  return { ...acc, attempts };
}

export function buildSignature(acc: CodeAccumulator): DriftSignature {
  const samples = [...acc.retryAfter.values()].reduce((s, c) => s + c, 0);
  const toldShapes = Object.entries(acc.told)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, TOP_TOLD_SHAPES)
    .map(([shape, count]) => ({ shape, count }));
  return {
    code: acc.code,
    tool: acc.tool,
    release: acc.release,
    releaseKind: acc.releaseKind,
    calls: acc.calls,
    spans: acc.spans,
    errors: acc.errors,
    firstSeen: acc.firstSeen,
    lastSeen: acc.lastSeen,
    errorClass: dimMix(acc, "error_class"),
    retryable: dimMix(acc, "retryable"),
    outcome: dimMix(acc, "outcome"),
    decision: dimMix(acc, "decision"),
    retryAfter: { samples, medianMs: histogramQuantile(acc.retryAfter, 0.5), p90Ms: acc.retryAfterMedianOnly ? null : histogramQuantile(acc.retryAfter, 0.9) },
    recovery: { calls: acc.calls, recovered: acc.recovered, rate: acc.calls > 0 ? acc.recovered / acc.calls : null },
    toldShapes,
    exampleRunIds: acc.exampleRunIds,
  };
}

/** Total variation distance between two mixes (0 = identical shares, 1 = disjoint). */
export function totalVariation(a: Mix, b: Mix): number {
  const values = new Set([...a.entries.map((e) => e.value), ...b.entries.map((e) => e.value)]);
  let sum = 0;
  for (const v of values) {
    const x = a.entries.find((e) => e.value === v)?.share ?? 0;
    const y = b.entries.find((e) => e.value === v)?.share ?? 0;
    sum += Math.abs(x - y);
  }
  return sum / 2;
}

export const modeOf = (mix: Mix) => mix.entries[0];
