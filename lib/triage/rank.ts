import type { IssueState } from "@/lib/contracts/issues";

const STATE_RANK: Record<IssueState, number> = { regressed: 0, open: 1, ignored: 2, resolved: 3 };

/** What the ranking reads of an issue. */
export interface Rankable {
  id: string;
  state: IssueState;
  unrecovered: number;
  runs: number;
  failures: number;
  lastSeen: number;
}

/**
 * Issues by impact: regressions first, then open, ignored and resolved; within a state the failures
 * the agent could not recover from, then runs affected, then failures, then the most recent; the id
 * makes the order total.
 */
export function rankIssues<T extends Rankable>(issues: readonly T[]): T[] {
  return [...issues].sort(
    (a, b) =>
      STATE_RANK[a.state] - STATE_RANK[b.state] ||
      b.unrecovered - a.unrecovered ||
      b.runs - a.runs ||
      b.failures - a.failures ||
      b.lastSeen - a.lastSeen ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
