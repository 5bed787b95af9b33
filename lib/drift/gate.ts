import type { CodeContract, GateResponse } from "@/lib/contracts/gate";
import { UNCHECKED_FROM_CONTRACT } from "@/lib/contracts/gate";
import { computeFindings, type ToolRelease } from "./compare";
import { contractInput, medianOnly } from "./contract";
import { orderReleases } from "./semver";
import { plural } from "./sentence";
import type { CodeAccumulator } from "./signature";
import { MIN_TOOL_CALLS } from "./thresholds";

/** What the release is compared with: each tool's previous release, a named release, or a committed document. */
export type GateAgainst = { kind: "predecessor" } | { kind: "release"; release: string } | { kind: "contract"; contract: CodeContract };

export interface GateInput {
  project: string;
  release: string;
  against: GateAgainst;
  toolReleases: readonly ToolRelease[];
  accumulators: readonly CodeAccumulator[];
  upToDate: boolean;
}

type Pair = { from: ToolRelease; to: ToolRelease };

/** The release each tool of `release` is compared with, or undefined when it has none. */
function baseFor(input: GateInput, to: ToolRelease, contractReleases: readonly ToolRelease[]): ToolRelease | undefined {
  const { against } = input;
  if (against.kind === "contract") return contractReleases.find((r) => r.tool === to.tool);
  if (against.kind === "release") return input.toolReleases.find((r) => r.tool === to.tool && r.release === against.release);
  const ordered = orderReleases(input.toolReleases.filter((r) => r.tool === to.tool)).items;
  const at = ordered.findIndex((r) => r.release === input.release);
  return at > 0 ? ordered[at - 1] : undefined;
}

/**
 * The release gate: the drift findings between `release` and what it is compared with, per tool,
 * judged by SemVer. Any violation fails; too little data, an unknown release or nothing to compare
 * with leaves it undecided, so a pipeline can tell "broken" from "could not look".
 */
export function evaluateGate(input: GateInput): GateResponse {
  const contract = input.against.kind === "contract" ? contractInput(input.against.contract) : { toolReleases: [], accumulators: [] };
  const against: GateResponse["against"] =
    input.against.kind === "contract"
      ? { kind: "contract", release: input.against.contract.release }
      : { kind: input.against.kind, release: input.against.kind === "release" ? input.against.release : null };
  const answer = (verdict: GateResponse["verdict"], reason: GateResponse["reason"], message: string, rest: Partial<GateResponse> = {}): GateResponse => ({
    verdict, reason, message, project: input.project, release: input.release, against,
    comparisons: [], violations: [], otherFindings: [], newCodes: [], removedCodes: [],
    uncheckedRules: input.against.kind === "contract" ? [...UNCHECKED_FROM_CONTRACT] : [],
    upToDate: input.upToDate, ...rest,
  });

  const targets = input.toolReleases.filter((r) => r.release === input.release);
  if (targets.length === 0) return answer("undecided", "unknown_release", `no tool call of ${input.project} was recorded in release ${input.release}`);
  if (input.against.kind === "release" && !input.toolReleases.some((r) => r.release === (input.against as { release: string }).release)) {
    return answer("undecided", "unknown_release", `no tool call of ${input.project} was recorded in release ${input.against.release}`);
  }
  const pairs: Pair[] = targets.flatMap((to) => {
    const from = baseFor(input, to, contract.toolReleases);
    return from ? [{ from, to }] : [];
  });
  if (pairs.length === 0) return answer("undecided", "no_predecessor", `no tool of release ${input.release} has an earlier release to compare with`);
  const judged = pairs.filter((p) => p.from.calls >= MIN_TOOL_CALLS && p.to.calls >= MIN_TOOL_CALLS);
  const comparisons = judged.map((p) => ({ tool: p.to.tool, from: p.from.release, to: p.to.release, fromCalls: p.from.calls, toCalls: p.to.calls }));
  if (judged.length === 0) {
    const thin = pairs.map((p) => `${p.to.tool}: ${plural(p.from.calls, "call")} in ${p.from.release}, ${plural(p.to.calls, "call")} in ${p.to.release}`).join("; ");
    return answer("undecided", "too_few_calls", `too few calls to judge (at least ${MIN_TOOL_CALLS} per tool and release are needed): ${thin}`);
  }

  const inPair = (a: CodeAccumulator) => judged.some((p) => p.to.tool === a.tool && (a.release === p.from.release || a.release === p.to.release));
  const recorded = input.accumulators.filter((a) => inPair(a) && (input.against.kind !== "contract" || a.release === input.release));
  const accumulators = [
    ...(input.against.kind === "contract" ? recorded.map(medianOnly) : recorded),
    ...contract.accumulators.filter((a) => judged.some((p) => p.to.tool === a.tool)),
  ];
  const findings = computeFindings({ toolReleases: judged.flatMap((p) => [p.from, p.to]), accumulators });

  const seen = (tool: string, release: string) => new Map(accumulators.filter((a) => a.tool === tool && a.release === release).map((a) => [a.code, a.calls]));
  const newCodes: GateResponse["newCodes"] = [];
  const removedCodes: GateResponse["removedCodes"] = [];
  for (const p of judged) {
    const before = seen(p.to.tool, p.from.release);
    const after = seen(p.to.tool, p.to.release);
    for (const [code, calls] of after) if (!before.has(code)) newCodes.push({ tool: p.to.tool, code, calls });
    for (const [code, calls] of before) if (!after.has(code)) removedCodes.push({ tool: p.to.tool, code, calls });
  }
  const violations = findings.filter((f) => f.verdict === "violation");
  const otherFindings = findings.filter((f) => f.verdict !== "violation");
  const rest = { comparisons, violations, otherFindings, newCodes, removedCodes };
  return violations.length > 0
    ? answer("fail", null, `${plural(violations.length, "SemVer violation")} in release ${input.release}`, rest)
    : answer("pass", null, `no SemVer violation in release ${input.release}`, rest);
}
