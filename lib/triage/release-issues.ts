import type { ReleaseHealth, ReleaseIssue } from "@/lib/contracts/releases";
import { breaksResolution, stateAt, type Triage } from "./issue-state";

/** An issue with its triage and its failures per release, as the release page reads it. */
export interface IssueInReleases {
  id: string;
  tool: string;
  code: string;
  triage: Triage;
  releases: readonly { release: string; firstSeen: number; lastSeen: number; failures: number }[];
}

const sortByImpact = (xs: ReleaseIssue[]) => xs.sort((a, b) => b.failures - a.failures || (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

/**
 * The issues a release brought, brought back and fixed, judged against the release before it in the
 * project's order (`earlier`: every release ordered before it):
 * - new: failing in it and in no earlier release;
 * - regressed: regressed now, and its failures in this release break its resolution;
 * - resolved: resolved in this release, or in the release after the previous one (and, being still
 *   resolved, not failing where the fix is).
 * Each list is ordered by failures, then tool and code.
 */
export function releaseIssues(issues: readonly IssueInReleases[], release: string, previous: string | null, earlier: ReadonlySet<string>, now: number): ReleaseHealth["issues"] {
  const out: ReleaseHealth["issues"] = { new: [], regressed: [], resolved: [] };
  for (const i of issues) {
    const here = i.releases.find((r) => r.release === release);
    const state = stateAt(i.triage, now);
    const ref = (failures: number): ReleaseIssue => ({ id: i.id, tool: i.tool, code: i.code, state, failures });
    if (here && !i.releases.some((r) => r.failures > 0 && earlier.has(r.release))) out.new.push(ref(here.failures));
    if (here && i.triage.state === "regressed" && breaksResolution(i.triage, { release, at: here.lastSeen }, i.releases)) out.regressed.push(ref(here.failures));
    const t = i.triage;
    const fixedHere = (t.resolveMode === "in_release" && t.resolveRelease === release) || (t.resolveMode === "next_release" && previous !== null && t.resolveRelease === previous);
    if (t.state === "resolved" && fixedHere) out.resolved.push(ref(i.releases.find((r) => r.release === previous)?.failures ?? 0));
  }
  return { new: sortByImpact(out.new), regressed: sortByImpact(out.regressed), resolved: sortByImpact(out.resolved) };
}
