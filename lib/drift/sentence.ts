import type { DriftBump, DriftKind, DriftVerdict, Mix } from "@/lib/contracts/drift";
import { formatDelay } from "./delays";
import type { SignatureDim } from "./signature";

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
export const pct = (rate: number) => `${Math.round(rate * 100)}%`;

const KIND_PHRASE: Record<DriftKind, string> = {
  repurposed: "a repurposed code",
  behaviour: "behaviour drift",
  model_behaviour: "model behaviour drift",
  removed: "a code removed",
  added: "a code added",
  renamed: "a renamed code",
};

const BUMP_LABEL: Record<Exclude<DriftBump, "not_semver">, string> = {
  major: "major",
  minor: "minor",
  patch: "patch",
  prerelease: "pre-release",
  pre1_minor: "0.x minor",
};

/** The closing clause: what kind of change, in which kind of release, and SemVer's judgement. */
export function verdictClause(kind: DriftKind, bump: DriftBump, verdict: DriftVerdict): string {
  if (verdict === "improvement") {
    const where = bump === "not_semver" ? "between releases that are not semantic versions" : `in a ${BUMP_LABEL[bump]} release`;
    return `${KIND_PHRASE[kind]} for the better ${where}, an improvement listed for information`;
  }
  if (bump === "not_semver") return `${KIND_PHRASE[kind]} between releases that are not semantic versions`;
  const where = `${KIND_PHRASE[kind]} in a ${BUMP_LABEL[bump]} release`;
  return verdict === "violation" ? `${where}, a SemVer violation` : `${where}, which SemVer allows`;
}

/** One dimension's dominant value in words: `retryable`, `permanent (80%)`, `class ToolRefusal`. */
export function describeDim(dim: SignatureDim, mix: Mix): string {
  const top = mix.entries[0];
  if (!top) return `${dim.replace("_", " ")} unknown`;
  const share = top.share < 0.995 ? ` (${pct(top.share)})` : "";
  if (dim === "retryable") return `${top.value}${share}`;
  const label = dim === "error_class" ? "class" : dim;
  return `${label} ${top.value}${share}`;
}

export const quoteCode = (code: string) => `\`${code}\``;

/** A retry_after distribution in words; a p90 that is not known (a contract keeps only the median) is not printed. */
export function describeDelays(median: number | null, p90: number | null): string {
  if (median === null) return "no retry_after";
  return `a median retry_after of ${formatDelay(median)}${p90 === null ? "" : ` (p90 ${formatDelay(p90)})`}`;
}
