import type { DriftDirection, DriftSignature, Mix } from "@/lib/contracts/drift";
import { formatDelay } from "./delays";
import { quoteCode } from "./sentence";
import { modeOf, type SignatureDim } from "./signature";

// The closing clause of every finding's sentence: what a client that handles the code should do
// about the change. Each names the code and the release from which it applies.

const top = (mix: Mix) => modeOf(mix)?.value;

const mixOf = (s: DriftSignature, dim: SignatureDim): Mix =>
  ({ error_class: s.errorClass, retryable: s.retryable, outcome: s.outcome, decision: s.decision })[dim];

/** Advice for a repurposed code, from the most consequential dimension that changed. */
export function repurposedAdvice(code: string, dims: readonly SignatureDim[], a: DriftSignature, b: DriftSignature): string {
  const q = quoteCode(code);
  const to = b.release;
  if (dims.includes("retryable")) {
    return top(b.retryable) === "permanent"
      ? `clients that retry ${q} will now fail closed: treat it as permanent from ${to} and surface it instead of retrying`
      : `clients that give up on ${q} at once will now miss calls a retry would rescue: retry it with backoff from ${to}`;
  }
  if (dims.includes("outcome") || dims.includes("error_class")) {
    if (top(b.outcome) === "declined" || top(b.errorClass) === "ToolRefusal") {
      return `clients that retry ${q} as a failure will now repeat a refusal: deliver it to the model once from ${to}`;
    }
    const changed = dims.filter((d) => d === "outcome" || d === "error_class");
    const now = changed.map((d) => `${d === "error_class" ? "class" : d} ${top(mixOf(b, d)) ?? "unknown"}`).join(", ");
    return `rules keyed on ${q} will now meet ${now}: review them before upgrading to ${to}`;
  }
  return `clients that expect ${q} to end in ${top(a.decision) ?? "an unknown decision"} will now see ${top(b.decision) ?? "an unknown decision"}: update what they do after it before upgrading to ${to}`;
}

/** Advice for a change in how often calls recover after the code. */
export function recoveryAdvice(code: string, a: DriftSignature, b: DriftSignature): string {
  const q = quoteCode(code);
  return (b.recovery.rate ?? 0) < (a.recovery.rate ?? 0)
    ? `retrying ${q} no longer helps: cap its retries or surface it at once from ${b.release}`
    : `${q} now recovers when retried: a retry policy for it pays off from ${b.release}`;
}

/** Advice for a change in the `retry_after` the code asks for. */
export function retryAfterAdvice(code: string, b: DriftSignature, direction: DriftDirection): string {
  const q = quoteCode(code);
  // The longest wait clients must now leave room for: the p90 where known.
  const longest = b.retryAfter.p90Ms ?? b.retryAfter.medianMs ?? 0;
  return direction === "worse"
    ? `clients that honour retry_after on ${q} will now wait longer: check their deadlines leave ${formatDelay(longest)} from ${b.release}`
    : `clients that honour retry_after on ${q} will now retry sooner: check they stay within the upstream's rate limits from ${b.release}`;
}

/** Advice for a code no release after `to` emits. */
export const removedAdvice = (code: string, to: string) =>
  `clients that branch on ${quoteCode(code)} will not see it from ${to}: find in the linked runs what replaced it before relying on that rule`;

/** Advice for a code new in `to`. */
export const addedAdvice = (code: string, to: string) =>
  `clients have no rule for ${quoteCode(code)} yet: decide whether to retry or surface it before upgrading to ${to}`;

/** Advice for a code replaced by another with the same meaning. */
export const renamedAdvice = (code: string, renamedTo: string, to: string) =>
  `clients that match ${quoteCode(code)} must match ${quoteCode(renamedTo)} from ${to}: add the new code to every rule that names the old one`;
