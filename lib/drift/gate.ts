import type { DriftFinding } from "@/lib/contracts/drift";
import type { CodeContract, GateResponse } from "@/lib/contracts/gate";
import { UNCHECKED_FROM_CONTRACT } from "@/lib/contracts/gate";
import { computeFindings, rankFindings, type ToolRelease } from "./compare";
import { contractInput, medianOnly } from "./contract";
import { pairTools, predecessorOf, type Pair } from "./gate-pairs";
import { modelBehaviourFindings, type ToldReleaseCounts } from "./model-behaviour";
import type { RuleEdit } from "./rule-caused";
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
  /**
   * Against the predecessor: the project's stored drift findings into `release`, the very findings
   * the Drift page and the drift alerts show, so the three never disagree.
   */
  releaseFindings: readonly DriftFinding[];
  /** Against a named release: the told counts (model behaviour is judged from them as the drift refresh does). */
  told: readonly ToldReleaseCounts[];
  /** The project's classification rule changes: codes that come and go with them are not judged (rule-caused.ts). */
  ruleEdits?: readonly RuleEdit[];
  upToDate: boolean;
}

/** The findings of `release` against a base that is not its predecessor, by the drift page's own rules. */
function computedFindings(input: GateInput, judged: readonly Pair[], contract: ReturnType<typeof contractInput>): DriftFinding[] {
  const inPair = (a: { tool: string; release: string }) => judged.some((p) => p.to.tool === a.tool && (a.release === p.from.release || a.release === p.to.release));
  const fromDocument = input.against.kind === "contract";
  const recorded = input.accumulators.filter((a) => inPair(a) && (!fromDocument || a.release === input.release));
  const accumulators = [
    // A document keeps only the median of retry_after: the release's side is reduced to it too.
    ...(fromDocument ? recorded.map(medianOnly) : recorded),
    ...contract.accumulators.filter((a) => judged.some((p) => p.to.tool === a.tool)),
  ];
  const behaviour = fromDocument ? [] : modelBehaviourFindings(input.told.filter(inPair));
  return rankFindings([...computeFindings({ toolReleases: judged.flatMap((p) => [p.from, p.to]), accumulators, ruleEdits: fromDocument ? [] : (input.ruleEdits ?? []) }), ...behaviour]).filter((f) => f.toRelease === input.release);
}

/** Codes seen on one side of a comparison only. */
function codesOnOneSide(judged: readonly Pair[], accumulators: readonly CodeAccumulator[]): Pick<GateResponse, "newCodes" | "removedCodes"> {
  const seen = (tool: string, release: string) => new Map(accumulators.filter((a) => a.tool === tool && a.release === release).map((a) => [a.code, a.calls]));
  const newCodes: GateResponse["newCodes"] = [];
  const removedCodes: GateResponse["removedCodes"] = [];
  for (const p of judged) {
    const before = seen(p.to.tool, p.from.release);
    const after = seen(p.to.tool, p.to.release);
    for (const [code, calls] of after) if (!before.has(code)) newCodes.push({ tool: p.to.tool, code, calls });
    for (const [code, calls] of before) if (!after.has(code)) removedCodes.push({ tool: p.to.tool, code, calls });
  }
  return { newCodes, removedCodes };
}

/**
 * The release gate: the drift findings between `release` and what it is compared with, per tool.
 * Any SemVer violation fails; a change of behaviour for the better is an improvement and never
 * fails; findings for the worse between releases that are not versions leave it undecided (SemVer
 * cannot judge them, a person must); too little data, an unknown release or nothing to compare
 * with leaves it undecided too, so a pipeline can tell "broken" from "could not look".
 */
export function evaluateGate(input: GateInput): GateResponse {
  const { against: base } = input;
  const contract = base.kind === "contract" ? contractInput(base.contract) : { toolReleases: [], accumulators: [] };
  const against: GateResponse["against"] = base.kind === "contract" ? { kind: "contract", release: base.contract.release } : { kind: base.kind, release: base.kind === "release" ? base.release : null };
  const answer = (verdict: GateResponse["verdict"], reason: GateResponse["reason"], message: string, rest: Partial<GateResponse> = {}): GateResponse => ({
    verdict, reason, message, project: input.project, release: input.release, against,
    comparisons: [], unjudged: [], violations: [], otherFindings: [], improvements: [], newCodes: [], removedCodes: [],
    unchecked: base.kind === "contract" ? UNCHECKED_FROM_CONTRACT.map((u) => ({ ...u })) : [],
    upToDate: input.upToDate, ...rest,
  });

  const targets = input.toolReleases.filter((r) => r.release === input.release);
  if (targets.length === 0) return answer("undecided", "unknown_release", `no tool call of ${input.project} was recorded in release ${input.release}`);
  if (base.kind === "release" && !input.toolReleases.some((r) => r.release === base.release)) {
    return answer("undecided", "unknown_release", `no tool call of ${input.project} was recorded in release ${base.release}`);
  }
  const baseFor =
    base.kind === "contract"
      ? (to: ToolRelease) => contract.toolReleases.find((r) => r.tool === to.tool)
      : base.kind === "release"
        ? (to: ToolRelease) => input.toolReleases.find((r) => r.tool === to.tool && r.release === base.release)
        : predecessorOf(input.toolReleases, input.release);
  const baseLabel = base.kind === "contract" ? `the contract of ${base.contract.release}` : base.kind === "release" ? `release ${base.release}` : "an earlier release";
  const { judged, unjudged } = pairTools(targets, baseFor, base.kind, baseLabel);

  const findings = base.kind === "predecessor" ? rankFindings(input.releaseFindings.filter((f) => f.toRelease === input.release)) : computedFindings(input, judged, contract);
  const rest: Partial<GateResponse> = {
    comparisons: judged.map((p) => ({ tool: p.to.tool, from: p.from.release, to: p.to.release, fromCalls: p.from.calls, toCalls: p.to.calls })),
    unjudged,
    violations: findings.filter((f) => f.verdict === "violation"),
    otherFindings: findings.filter((f) => f.verdict === "allowed" || f.verdict === "not_semver"),
    improvements: findings.filter((f) => f.verdict === "improvement"),
    ...codesOnOneSide(judged, [...input.accumulators, ...contract.accumulators]),
  };
  const violations = rest.violations!.length;
  if (violations > 0) return answer("fail", null, `${plural(violations, "SemVer violation")} in release ${input.release}`, rest);

  if (judged.length === 0) {
    const thin = unjudged.filter((u) => u.reason === "too_few_calls");
    if (thin.length === 0) {
      const message = base.kind === "predecessor" ? `no tool of release ${input.release} has an earlier release to compare with` : `no tool of release ${input.release} was seen in ${baseLabel}`;
      return answer("undecided", "no_predecessor", message, rest);
    }
    const counts = thin.map((u) => `${u.tool}: ${plural(u.baseCalls ?? 0, "call")} in ${u.base}, ${plural(u.calls, "call")} in ${input.release}`).join("; ");
    return answer("undecided", "too_few_calls", `too few calls to judge (at least ${MIN_TOOL_CALLS} per tool and release are needed): ${counts}`, rest);
  }
  // SemVer cannot judge a change for the worse between CalVer or build-numbered releases: a person must.
  const toReview = rest.otherFindings!.filter((f) => f.verdict === "not_semver" && f.severity !== "info");
  if (toReview.length > 0) {
    const worst = toReview[0]!.severity;
    return answer(
      "undecided",
      "not_semver",
      `${plural(toReview.length, "finding")} to review in release ${input.release} (the most severe ${worst}): its releases are not semantic versions, so SemVer cannot judge them`,
      rest,
    );
  }
  const improvements = rest.improvements!.length;
  return answer("pass", null, `no SemVer violation in release ${input.release}${improvements > 0 ? ` (${plural(improvements, "improvement")} listed)` : ""}`, rest);
}
