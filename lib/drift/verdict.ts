import type { DriftBump, DriftDirection, DriftKind, DriftSeverity, DriftVerdict } from "@/lib/contracts/drift";

/**
 * SemVer judgement. Codes are public API: removing, renaming or repurposing one, or changing how it
 * behaves, is breaking, so only a major (or a 0.x minor, or a pre-release) may do it; new codes
 * belong in minors, so an addition in a patch is a violation too. A behaviour change for the better
 * (`direction`) breaks no client that coped with the old behaviour: it is an improvement, whatever
 * the bump; a change of meaning (repurposed, removed, renamed) has no better direction.
 */
export function verdictFor(kind: DriftKind, bump: DriftBump, direction: DriftDirection | null = null): DriftVerdict {
  if (direction === "better" && (kind === "behaviour" || kind === "model_behaviour")) return "improvement";
  if (bump === "not_semver") return "not_semver";
  if (bump === "major" || bump === "pre1_minor" || bump === "prerelease") return "allowed";
  if (kind === "added") return bump === "minor" ? "allowed" : "violation";
  return "violation";
}

const LADDER: readonly DriftSeverity[] = ["info", "low", "medium", "high", "critical"];
const raise = (s: DriftSeverity): DriftSeverity => LADDER[Math.min(LADDER.length - 1, LADDER.indexOf(s) + 1)]!;

const BASE: Record<DriftKind, Record<DriftVerdict, DriftSeverity>> = {
  // A repurposed code silently flips every policy that branches on it.
  repurposed: { violation: "critical", not_semver: "high", allowed: "medium", improvement: "info" },
  removed: { violation: "high", not_semver: "medium", allowed: "low", improvement: "info" },
  renamed: { violation: "high", not_semver: "medium", allowed: "low", improvement: "info" },
  behaviour: { violation: "medium", not_semver: "medium", allowed: "low", improvement: "info" },
  // The model stopped correcting itself after the code's message: the release made errors costlier.
  model_behaviour: { violation: "medium", not_semver: "medium", allowed: "low", improvement: "info" },
  added: { violation: "low", not_semver: "info", allowed: "info", improvement: "info" },
};

/**
 * Severity of a finding. `lyingTransient`: after the change the code still claims to be retryable
 * but its calls (almost) never recover — retries are pure waste, so it ranks one step higher.
 */
export function severityFor(kind: DriftKind, verdict: DriftVerdict, lyingTransient = false): DriftSeverity {
  const base = BASE[kind][verdict];
  return lyingTransient ? raise(base) : base;
}

/** Rank for sorting, most severe first. */
export const severityRank = (s: DriftSeverity) => LADDER.indexOf(s);
