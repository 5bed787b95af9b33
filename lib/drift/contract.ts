import type { CodeContract, ContractCode } from "@/lib/contracts/gate";
import type { Mix } from "@/lib/contracts/drift";
import type { ToolRelease } from "./compare";
import { histogramQuantile } from "./delays";
import { buildSignature, emptyDimCounts, type CodeAccumulator, type DimCounts, type SignatureDim } from "./signature";

/** A release's code catalogue per tool, from the drift accumulators (the export a team commits). */
export function contractOf(project: string, release: string, toolReleases: readonly ToolRelease[], accumulators: readonly CodeAccumulator[], now: number): CodeContract {
  const tools = toolReleases
    .filter((tr) => tr.release === release)
    .map((tr) => ({
      tool: tr.tool,
      calls: tr.calls,
      codes: accumulators
        .filter((a) => a.tool === tr.tool && a.release === release)
        .map((a): ContractCode => {
          const s = buildSignature(a);
          const top = (mix: Mix) => mix.entries[0]?.value ?? null;
          const retryable = top(s.retryable);
          return {
            code: a.code,
            calls: a.calls,
            class: top(s.errorClass),
            retryable: retryable === null ? null : retryable === "retryable",
            outcome: top(s.outcome),
            mixes: { errorClass: s.errorClass, retryable: s.retryable, outcome: s.outcome, decision: s.decision },
            retryAfter: { samples: s.retryAfter.samples, medianMs: s.retryAfter.medianMs },
            recovery: { calls: s.recovery.calls, recovered: s.recovery.recovered },
          };
        })
        .sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0)),
    }))
    .sort((x, y) => (x.tool < y.tool ? -1 : x.tool > y.tool ? 1 : 0));
  return { version: 1, project, release, exportedAt: now, tools };
}

const MIX_DIMS: [SignatureDim, keyof ContractCode["mixes"]][] = [
  ["error_class", "errorClass"],
  ["retryable", "retryable"],
  ["outcome", "outcome"],
  ["decision", "decision"],
];

/** A committed document's side of a comparison, as the drift rules read it. */
export function contractInput(doc: CodeContract): { toolReleases: ToolRelease[]; accumulators: CodeAccumulator[] } {
  const toolReleases: ToolRelease[] = [];
  const accumulators: CodeAccumulator[] = [];
  for (const t of doc.tools) {
    // First seen at 0: when the releases are not versions, the document still comes first.
    toolReleases.push({ tool: t.tool, release: doc.release, releaseKind: "release", calls: t.calls, firstSeen: 0, exampleRunIds: [] });
    for (const c of t.codes) {
      const attempts: DimCounts = emptyDimCounts();
      const finalErrors: DimCounts = emptyDimCounts();
      let spans = 0;
      for (const [dim, name] of MIX_DIMS) {
        const mix = c.mixes[name];
        if (mix.basis === "none") continue;
        const target = mix.basis === "attempts" ? attempts : finalErrors;
        for (const e of mix.entries) target[dim][e.value] = e.count;
        if (mix.basis === "attempts") spans = Math.max(spans, mix.total);
      }
      accumulators.push({
        code: c.code, tool: t.tool, release: doc.release, releaseKind: "release",
        spans, errors: spans === 0 ? c.calls : 0, calls: c.calls, recovered: c.recovery.recovered,
        firstSeen: 0, lastSeen: 0, attempts, finalErrors,
        retryAfter: c.retryAfter.medianMs === null ? new Map() : new Map([[c.retryAfter.medianMs, c.retryAfter.samples]]),
        retryAfterMedianOnly: true,
        told: {}, exampleRunIds: [],
      });
    }
  }
  return { toolReleases, accumulators };
}

/**
 * A document keeps only the median of retry_after; the release compared with it keeps only its
 * median too, so the p90 half of the rule cannot fire on one side's missing data.
 */
export function medianOnly(acc: CodeAccumulator): CodeAccumulator {
  const samples = [...acc.retryAfter.values()].reduce((s, c) => s + c, 0);
  const median = histogramQuantile(acc.retryAfter, 0.5);
  return { ...acc, retryAfter: median === null ? new Map() : new Map([[median, samples]]), retryAfterMedianOnly: true };
}
