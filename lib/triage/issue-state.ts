import { orderReleases, type ReleaseItem } from "@/lib/drift/semver";
import type { IgnoreMode, IssueState, ResolveMode } from "@/lib/contracts/issues";

export type { IgnoreMode, IssueState, ResolveMode } from "@/lib/contracts/issues";

/** The triage part of an issue, as stored (one column each); fields of other states are null. */
export interface Triage {
  state: IssueState;
  resolveMode: ResolveMode | null;
  /** The release the fix is in (`in_release`) or the latest release when resolved (`next_release`). */
  resolveRelease: string | null;
  resolvedAt: number | null;
  ignoreMode: IgnoreMode | null;
  /** `until_date`: the instant; `until_count`: the failure total that ends it; `until_worse`: the worst hour's failures so far. */
  ignoreLimit: number | null;
}

/** A triage with nothing decided: every new issue starts here. */
export const openTriage = (): Triage => ({ state: "open", resolveMode: null, resolveRelease: null, resolvedAt: null, ignoreMode: null, ignoreLimit: null });

/** What one ingest batch adds to an issue, already summed into the issue's totals. */
export interface FailureSighting {
  /** Each new failing attempt's release and start time. */
  failures: readonly { release: string; at: number }[];
  /** The issue's failure total after the batch. */
  totalFailures: number;
  /** The most failures of any hour the batch touched, after the batch. */
  worstHour: number;
  /** Every release the issue has failed in, with its first sighting (the batch's included). */
  releases: readonly ReleaseItem[];
}

/** A state change and why it happened, for the issue's history. */
export interface Transition {
  triage: Triage;
  event: { kind: "regressed" | "unignored"; detail: string } | null;
}

/**
 * Whether release `a` comes after `b` in the issue's release order: SemVer (CalVer parses as
 * SemVer with a large major) when every label parses, else first sighting, as drift decides.
 * A label the issue has never failed in counts as first seen at `unknownSeenAt`.
 */
export function releaseAfter(a: string, b: string, releases: readonly ReleaseItem[], unknownSeenAt: number): boolean {
  if (a === b) return false;
  const items = [...releases];
  for (const r of [a, b]) if (!items.some((i) => i.release === r)) items.push({ release: r, firstSeen: unknownSeenAt });
  const order = orderReleases(items).items.map((i) => i.release);
  return order.indexOf(a) > order.indexOf(b);
}

/** The latest of the issue's releases in its release order, or null when it has none. */
export function latestRelease(releases: readonly ReleaseItem[]): string | null {
  const ordered = orderReleases(releases).items;
  return ordered.length === 0 ? null : ordered[ordered.length - 1]!.release;
}

/** Whether one failure undoes a resolution (ingest judges each new failure; the release page, the failures of one release): a failure after "now", in a later release, or in the release of the fix or later. */
export function breaksResolution(t: Triage, failure: { release: string; at: number }, releases: readonly ReleaseItem[]): boolean {
  const resolvedAt = t.resolvedAt ?? 0;
  if (t.resolveMode === "now" || t.resolveRelease === null) return failure.at > resolvedAt;
  if (t.resolveMode === "next_release") return releaseAfter(failure.release, t.resolveRelease, releases, resolvedAt);
  return failure.release === t.resolveRelease || releaseAfter(failure.release, t.resolveRelease, releases, resolvedAt);
}

/** Whether an ignore's condition has ended, given the sighting (date, count or worst hour). */
function ignoreEnded(t: Triage, s: FailureSighting): boolean {
  const limit = t.ignoreLimit ?? 0;
  if (t.ignoreMode === "until_date") return s.failures.some((f) => f.at > limit);
  if (t.ignoreMode === "until_count") return s.totalFailures >= limit;
  return s.worstHour > limit;
}

/**
 * What new failures do to an issue's triage: a resolution they break becomes `regressed`, an ignore
 * whose condition they end becomes `open` again; anything else is unchanged.
 */
export function applyFailures(t: Triage, s: FailureSighting): Transition {
  if (s.failures.length === 0) return { triage: t, event: null };
  if (t.state === "resolved") {
    const breaking = s.failures.find((f) => breaksResolution(t, f, s.releases));
    if (!breaking) return { triage: t, event: null };
    return {
      triage: { ...t, state: "regressed" },
      event: { kind: "regressed", detail: `failed again in ${breaking.release} after it was resolved ${resolvedPhrase(t)}` },
    };
  }
  if (t.state === "ignored" && ignoreEnded(t, s)) {
    return { triage: { ...openTriage() }, event: { kind: "unignored", detail: ignoreEndPhrase(t) } };
  }
  return { triage: t, event: null };
}

/** The state as shown at `now`: an ignore until a date that has passed reads as open. */
export function stateAt(t: Triage, now: number): IssueState {
  return t.state === "ignored" && t.ignoreMode === "until_date" && (t.ignoreLimit ?? 0) <= now ? "open" : t.state;
}

/** A user's triage decision, as the write API takes it. */
export type TriageAction =
  | { state: "open" }
  | { state: "resolved"; mode: "now" }
  | { state: "resolved"; mode: "next_release" }
  | { state: "resolved"; mode: "in_release"; release: string }
  | { state: "ignored"; mode: "until_date"; until: number }
  | { state: "ignored"; mode: "until_count"; failures: number }
  | { state: "ignored"; mode: "until_worse" };

/** What the issue looks like when a decision is taken: its counts and releases at that moment. */
export interface DecisionContext {
  now: number;
  totalFailures: number;
  worstHour: number;
  releases: readonly ReleaseItem[];
}

/** The triage after a user's decision; `next_release` pins the latest release seen (none seen: resolved now). */
export function decide(action: TriageAction, c: DecisionContext): Triage {
  const base = openTriage();
  if (action.state === "open") return base;
  if (action.state === "resolved") {
    if (action.mode === "in_release") return { ...base, state: "resolved", resolveMode: "in_release", resolveRelease: action.release, resolvedAt: c.now };
    const latest = action.mode === "next_release" ? latestRelease(c.releases) : null;
    return latest === null
      ? { ...base, state: "resolved", resolveMode: "now", resolvedAt: c.now }
      : { ...base, state: "resolved", resolveMode: "next_release", resolveRelease: latest, resolvedAt: c.now };
  }
  const limit = action.mode === "until_date" ? action.until : action.mode === "until_count" ? c.totalFailures + action.failures : c.worstHour;
  return { ...base, state: "ignored", ignoreMode: action.mode, ignoreLimit: limit };
}

function resolvedPhrase(t: Triage): string {
  if (t.resolveMode === "next_release") return `in the release after ${t.resolveRelease}`;
  if (t.resolveMode === "in_release") return `in ${t.resolveRelease}`;
  return "without a release";
}

function ignoreEndPhrase(t: Triage): string {
  if (t.ignoreMode === "until_date") return "failed after the ignore's end date";
  if (t.ignoreMode === "until_count") return `reached ${t.ignoreLimit} failures`;
  return `an hour had more than ${t.ignoreLimit} failures`;
}
