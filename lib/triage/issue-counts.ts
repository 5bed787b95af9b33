import type { IssueCounts } from "@/lib/contracts/issue-counts";
import type { IssueState } from "@/lib/contracts/issues";

/** How many issues are in each state, from their states as of now (`stateAt`); unresolved = open + regressed. */
export function countIssueStates(states: Iterable<IssueState>): IssueCounts {
  const counts = { open: 0, regressed: 0, resolved: 0, ignored: 0, unresolved: 0 };
  for (const state of states) counts[state]++;
  counts.unresolved = counts.open + counts.regressed;
  return counts;
}
