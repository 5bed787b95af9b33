import type { DriftBump, DriftDirection, DriftFinding, DriftKind, DriftMetric, DriftSignature, Mix, ReleaseKind } from "@/lib/contracts/drift";
import { addedAdvice, recoveryAdvice, removedAdvice, renamedAdvice, repurposedAdvice, retryAfterAdvice } from "./advice";
import { bumpBetween, orderReleases } from "./semver";
import { describeDelays, describeDim, pct, plural, quoteCode, verdictClause } from "./sentence";
import { buildSignature, modeOf, SIGNATURE_DIMS, totalVariation, type CodeAccumulator, type SignatureDim } from "./signature";
import {
  MIN_CALLS,
  MIN_EXPECTED_CALLS,
  MIN_MIX_SAMPLES,
  MIN_TOOL_CALLS,
  MIX_SHIFT,
  NEVER_RECOVERS,
  RECOVERY_MIN_DELTA,
  RECOVERY_MIN_Z,
  RETRY_AFTER_MIN_RATIO,
  RETRY_AFTER_MIN_SAMPLES,
} from "./thresholds";
import { ruleCausedAbsence, ruleContext, type RuleEdit } from "./rule-caused";
import { comparableShape } from "./told-shape";
import { severityFor, severityRank, verdictFor } from "./verdict";

/** All calls of one tool in one release, whatever their outcome: the denominator for absences. */
export interface ToolRelease {
  tool: string;
  release: string;
  releaseKind: ReleaseKind;
  calls: number;
  /** True when `calls` counts final errors (the source sent more of them than first attempts). */
  finalErrorsOnly?: boolean;
  firstSeen: number;
  exampleRunIds: string[];
}

export interface DriftInput {
  toolReleases: readonly ToolRelease[];
  accumulators: readonly CodeAccumulator[];
  /** The project's rule changes: a code that comes and goes with them is not a change of the tool (rule-caused.ts). */
  ruleEdits?: readonly RuleEdit[];
}

/** Compact, stable id (cyrb53) so that a finding keeps its id across recomputations. */
export function findingId(parts: readonly string[]): string {
  const s = parts.join("\u0000");
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

interface Draft {
  kind: DriftKind;
  metric: DriftMetric | null;
  code: string;
  renamedTo: string | null;
  tool: string;
  from: string;
  to: string;
  beforeCalls: number;
  afterCalls: number;
  changes: string[];
  what: string;
  /** What a client should do about it: the sentence's last clause. */
  advice: string;
  before: DriftSignature | null;
  after: DriftSignature | null;
  exampleBefore: string[];
  exampleAfter: string[];
  lyingTransient?: boolean;
  /** Behaviour findings only: for the worse or the better (null: a change of meaning). */
  direction?: DriftDirection;
}

function finish(d: Draft, bump: DriftBump): DriftFinding {
  const direction = d.direction ?? null;
  const verdict = verdictFor(d.kind, bump, direction);
  return {
    id: findingId([d.kind, d.metric ?? "", d.tool, d.code, d.renamedTo ?? "", d.from, d.to]),
    kind: d.kind,
    metric: d.metric,
    severity: severityFor(d.kind, verdict, d.lyingTransient ?? false),
    verdict,
    bump,
    code: d.code,
    renamedTo: d.renamedTo,
    tool: d.tool,
    fromRelease: d.from,
    toRelease: d.to,
    beforeCalls: d.beforeCalls,
    afterCalls: d.afterCalls,
    changes: d.changes,
    direction,
    sentence: `${d.what}: ${verdictClause(d.kind, bump, verdict)}; ${d.advice}.`,
    before: d.before,
    after: d.after,
    exampleRuns: { before: d.exampleBefore, after: d.exampleAfter },
  };
}

const comparable = (a: Mix, b: Mix) => a.basis !== "none" && a.basis === b.basis && a.total >= MIN_MIX_SAMPLES && b.total >= MIN_MIX_SAMPLES;

/** The dimensions whose meaning changed: dominant value differs and at least half the mass moved. */
export function repurposedDims(a: DriftSignature, b: DriftSignature): SignatureDim[] {
  const mixes = (s: DriftSignature): Record<SignatureDim, Mix> => ({ error_class: s.errorClass, retryable: s.retryable, outcome: s.outcome, decision: s.decision });
  const ma = mixes(a);
  const mb = mixes(b);
  return SIGNATURE_DIMS.filter((dim) => {
    if (!comparable(ma[dim], mb[dim])) return false;
    return modeOf(ma[dim])?.value !== modeOf(mb[dim])?.value && totalVariation(ma[dim], mb[dim]) >= MIX_SHIFT;
  });
}

/** Two-proportion z statistic (pooled); 0 when it is undefined. */
export function twoProportionZ(x1: number, n1: number, x2: number, n2: number): number {
  if (n1 === 0 || n2 === 0) return 0;
  const p = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
  if (se === 0) return 0;
  return (x2 / n2 - x1 / n1) / se;
}

export function recoveryDrifted(a: DriftSignature, b: DriftSignature): boolean {
  const ra = a.recovery;
  const rb = b.recovery;
  if (ra.rate === null || rb.rate === null || ra.calls < MIN_CALLS || rb.calls < MIN_CALLS) return false;
  return Math.abs(rb.rate - ra.rate) >= RECOVERY_MIN_DELTA && Math.abs(twoProportionZ(ra.recovered, ra.calls, rb.recovered, rb.calls)) >= RECOVERY_MIN_Z;
}

const ratioMoved = (x: number, y: number) => Math.max(x, y) / Math.max(1, Math.min(x, y)) >= RETRY_AFTER_MIN_RATIO;
const ratioRose = (x: number | null, y: number | null) => x !== null && y !== null && y > x && ratioMoved(x, y);

/**
 * Which way a retry_after change went for clients: longer waits (median or p90) eat their deadlines,
 * so any rise beyond the ratio is for the worse; only waits that got shorter are better.
 */
export function retryAfterDirection(a: DriftSignature, b: DriftSignature): DriftDirection {
  return ratioRose(a.retryAfter.medianMs, b.retryAfter.medianMs) || ratioRose(a.retryAfter.p90Ms, b.retryAfter.p90Ms) ? "worse" : "better";
}

export function retryAfterDrifted(a: DriftSignature, b: DriftSignature): boolean {
  const x = a.retryAfter;
  const y = b.retryAfter;
  if (x.samples < RETRY_AFTER_MIN_SAMPLES || y.samples < RETRY_AFTER_MIN_SAMPLES) return false;
  return ratioMoved(x.medianMs ?? 0, y.medianMs ?? 0) || ratioMoved(x.p90Ms ?? 0, y.p90Ms ?? 0);
}

/** Same meaning under another name: every comparable dimension has the same dominant value. */
export function sameMeaning(a: DriftSignature, b: DriftSignature): boolean {
  const pairs: [Mix, Mix][] = [
    [a.errorClass, b.errorClass],
    [a.retryable, b.retryable],
    [a.outcome, b.outcome],
    [a.decision, b.decision],
  ];
  let compared = 0;
  for (const [x, y] of pairs) {
    if (x.basis === "none" && y.basis === "none") continue;
    if (x.basis !== y.basis) return false;
    compared++;
    if (modeOf(x)?.value !== modeOf(y)?.value || totalVariation(x, y) >= MIX_SHIFT) return false;
  }
  return compared > 0;
}

// Shapes folded before the shaping's version 2 meet newer ones in their comparable form.
const toldMatch = (a: DriftSignature, b: DriftSignature) => {
  const x = a.toldShapes[0]?.shape;
  const y = b.toldShapes[0]?.shape;
  return x !== undefined && y !== undefined && (x === y || comparableShape(x) === comparableShape(y));
};

const label = (tool: string, code: string) => `${quoteCode(code)} on ${quoteCode(tool)}`;
const inRelease = (release: string, calls: number) => `in ${release} (${plural(calls, "call")})`;
/**
 * A release and how often the code was seen there. Where only final errors carried it (no attempt
 * did, or the compared mixes count final errors alone), the count is of final errors and says so.
 */
const seenIn = (s: DriftSignature, finalErrorsOnly = s.spans === 0) =>
  finalErrorsOnly ? `in ${s.release} (${plural(s.errors, "final error")})` : inRelease(s.release, s.calls);

function compareCode(tool: string, code: string, a: DriftSignature, b: DriftSignature): Draft[] {
  const base = { code, renamedTo: null, tool, from: a.release, to: b.release, beforeCalls: a.calls, afterCalls: b.calls, before: a, after: b, exampleBefore: a.exampleRunIds, exampleAfter: b.exampleRunIds };
  const drafts: Draft[] = [];
  const dims = repurposedDims(a, b);
  if (dims.length > 0) {
    const mixOf = (s: DriftSignature, d: SignatureDim) => ({ error_class: s.errorClass, retryable: s.retryable, outcome: s.outcome, decision: s.decision })[d];
    const was = dims.map((d) => describeDim(d, mixOf(a, d))).join(", ");
    const is = dims.map((d) => describeDim(d, mixOf(b, d))).join(", ");
    const errorsOnly = dims.every((d) => mixOf(a, d).basis === "errors");
    drafts.push({
      ...base, kind: "repurposed", metric: null, changes: dims, advice: repurposedAdvice(code, dims, a, b),
      what: `${label(tool, code)} was ${was} ${seenIn(a, errorsOnly)} and is ${is} ${seenIn(b, errorsOnly)}`,
    });
  }
  if (recoveryDrifted(a, b)) {
    // A contradiction exists only when the new release's records still say retryable while its
    // calls (almost) never recover after the code; recovering more often contradicts nothing.
    const lying = modeOf(b.retryable)?.value === "retryable" && (b.recovery.rate ?? 0) <= NEVER_RECOVERS && (b.recovery.rate ?? 0) < (a.recovery.rate ?? 0);
    drafts.push({
      ...base,
      kind: "behaviour",
      metric: "recovery",
      changes: ["recovery"],
      direction: (b.recovery.rate ?? 0) < (a.recovery.rate ?? 0) ? "worse" : "better",
      lyingTransient: lying,
      advice: recoveryAdvice(code, a, b),
      what: `${label(tool, code)} recovered on a later attempt in ${pct(a.recovery.rate ?? 0)} of calls ${inRelease(a.release, a.calls)} and in ${pct(b.recovery.rate ?? 0)} ${inRelease(b.release, b.calls)}${lying ? " while still claiming to be retryable" : ""}`,
    });
  }
  if (retryAfterDrifted(a, b)) {
    drafts.push({
      ...base,
      kind: "behaviour",
      metric: "retry_after",
      changes: ["retry_after"],
      direction: retryAfterDirection(a, b),
      advice: retryAfterAdvice(code, b, retryAfterDirection(a, b)),
      what: `${label(tool, code)} asked for ${describeDelays(a.retryAfter.medianMs, a.retryAfter.p90Ms)} ${inRelease(a.release, a.calls)} and ${describeDelays(b.retryAfter.medianMs, b.retryAfter.p90Ms)} ${inRelease(b.release, b.calls)}`,
    });
  }
  return drafts;
}

/** Absences between two qualifying releases of one tool: removed, added, and their pairing as renames. */
function compareAbsences(tool: string, prev: ToolRelease, next: ToolRelease, sig: (code: string, release: string) => DriftSignature | undefined, codes: readonly string[]): Draft[] {
  const calls = (code: string, release: string) => sig(code, release)?.calls ?? 0;
  const removed = codes.filter((c) => calls(c, prev.release) >= MIN_CALLS && calls(c, next.release) === 0 && (calls(c, prev.release) / prev.calls) * next.calls >= MIN_EXPECTED_CALLS);
  const added = codes.filter((c) => calls(c, prev.release) === 0 && calls(c, next.release) >= MIN_CALLS && (calls(c, next.release) / next.calls) * prev.calls >= MIN_EXPECTED_CALLS);
  const drafts: Draft[] = [];
  const taken = new Set<string>();
  for (const old of removed) {
    const a = sig(old, prev.release)!;
    const candidates = added
      .filter((c) => !taken.has(c) && sameMeaning(a, sig(c, next.release)!))
      .map((c) => ({ c, b: sig(c, next.release)! }))
      // The best partner words its told text the same way, then has the most similar volume.
      .sort((x, y) => Number(toldMatch(a, y.b)) - Number(toldMatch(a, x.b)) || Math.abs(x.b.calls - a.calls) - Math.abs(y.b.calls - a.calls) || (x.c < y.c ? -1 : 1));
    const partner = candidates[0];
    if (partner) {
      taken.add(partner.c);
      taken.add(old);
      drafts.push({
        kind: "renamed", metric: null, code: old, renamedTo: partner.c, tool, from: prev.release, to: next.release,
        beforeCalls: a.calls, afterCalls: partner.b.calls, changes: ["code"], before: a, after: partner.b,
        exampleBefore: a.exampleRunIds, exampleAfter: partner.b.exampleRunIds, advice: renamedAdvice(old, partner.c, next.release),
        what: `${label(tool, old)} ${seenIn(a)} is gone and ${quoteCode(partner.c)} ${seenIn(partner.b)} took over with the same class, retryability, outcome and decision`,
      });
    }
  }
  for (const code of removed.filter((c) => !taken.has(c))) {
    const a = sig(code, prev.release)!;
    drafts.push({
      kind: "removed", metric: null, code, renamedTo: null, tool, from: prev.release, to: next.release,
      beforeCalls: a.calls, afterCalls: 0, changes: ["code"], before: a, after: null,
      exampleBefore: a.exampleRunIds, exampleAfter: next.exampleRunIds, advice: removedAdvice(code, next.release),
      what: `${label(tool, code)} was seen ${seenIn(a)} and on none of the ${plural(next.calls, next.finalErrorsOnly ? "final error" : "call")} of ${quoteCode(tool)} in ${next.release}`,
    });
  }
  for (const code of added.filter((c) => !taken.has(c))) {
    const b = sig(code, next.release)!;
    drafts.push({
      kind: "added", metric: null, code, renamedTo: null, tool, from: prev.release, to: next.release,
      beforeCalls: 0, afterCalls: b.calls, changes: ["code"], before: null, after: b,
      exampleBefore: prev.exampleRunIds, exampleAfter: b.exampleRunIds, advice: addedAdvice(code, next.release),
      what: `${label(tool, code)} appears ${seenIn(b)} and was absent from the ${plural(prev.calls, prev.finalErrorsOnly ? "final error" : "call")} of ${quoteCode(tool)} in ${prev.release}`,
    });
  }
  return drafts;
}

/**
 * Every finding of a project, derived from its accumulators alone. Releases are compared per tool
 * (a code shared by two tools can drift on one of them), consecutive in version order.
 */
export function computeFindings(input: DriftInput): DriftFinding[] {
  const sigs = new Map<string, DriftSignature>();
  const key = (tool: string, code: string, release: string) => `${tool}\u0000${code}\u0000${release}`;
  const codesByTool = new Map<string, Set<string>>();
  for (const acc of input.accumulators) {
    sigs.set(key(acc.tool, acc.code, acc.release), buildSignature(acc));
    if (!codesByTool.has(acc.tool)) codesByTool.set(acc.tool, new Set());
    codesByTool.get(acc.tool)!.add(acc.code);
  }
  const releasesByTool = new Map<string, ToolRelease[]>();
  for (const tr of input.toolReleases) {
    if (!releasesByTool.has(tr.tool)) releasesByTool.set(tr.tool, []);
    releasesByTool.get(tr.tool)!.push(tr);
  }
  const rules = ruleContext(input.accumulators, input.ruleEdits ?? []);
  const findings: DriftFinding[] = [];
  for (const [tool, releases] of releasesByTool) {
    const ordered = orderReleases(releases);
    const bump = (from: string, to: string): DriftBump => (ordered.order === "semver" ? bumpBetween(from, to) : "not_semver");
    const codes = [...(codesByTool.get(tool) ?? [])].sort();
    const sig = (code: string, release: string) => sigs.get(key(tool, code, release));
    for (const code of codes) {
      // Releases where this code was too rare to judge are skipped, not compared against.
      const series = ordered.items.map((r) => sig(code, r.release)).filter((s): s is DriftSignature => s !== undefined && s.calls >= MIN_CALLS);
      for (let i = 1; i < series.length; i++) {
        const a = series[i - 1]!;
        const b = series[i]!;
        for (const d of compareCode(tool, code, a, b)) findings.push(finish(d, bump(a.release, b.release)));
      }
    }
    const qualifying = ordered.items.filter((r) => r.calls >= MIN_TOOL_CALLS);
    for (let i = 1; i < qualifying.length; i++) {
      const prev = qualifying[i - 1]!;
      const next = qualifying[i]!;
      for (const d of compareAbsences(tool, prev, next, sig, codes)) {
        if (!ruleCausedAbsence(d, prev.firstSeen, rules)) findings.push(finish(d, bump(prev.release, next.release)));
      }
    }
  }
  return rankFindings(findings);
}

/** Most severe first; among equals violations first, then the larger sample. */
export function rankFindings(findings: DriftFinding[]): DriftFinding[] {
  const verdictRank = { violation: 0, not_semver: 1, allowed: 2, improvement: 3 } as const;
  return findings.sort(
    (a, b) =>
      severityRank(b.severity) - severityRank(a.severity) ||
      verdictRank[a.verdict] - verdictRank[b.verdict] ||
      Math.max(b.beforeCalls, b.afterCalls) - Math.max(a.beforeCalls, a.afterCalls) ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
      (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) ||
      (a.id < b.id ? -1 : 1),
  );
}
