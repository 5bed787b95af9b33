import type { IssueSummary } from "@/lib/contracts/issues";

/** The issues table's default order: impact (lib/triage/rank.ts), regressions first. */
export const IMPACT_SORT = "impact";

type SortDir = "asc" | "desc";

const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// Each column's ascending order; a tie keeps the impact order the list arrives in.
const ASCENDING: Record<string, (a: IssueSummary, b: IssueSummary) => number> = {
  issue: (a, b) => text(a.tool, b.tool) || text(a.code, b.code),
  state: (a, b) => text(a.state, b.state),
  unrecovered: (a, b) => a.unrecovered - b.unrecovered,
  runs: (a, b) => a.runs - b.runs,
  failures: (a, b) => a.failures - b.failures,
  retries: (a, b) => a.retries - b.retries || a.waitMs - b.waitMs,
  trend: (a, b) => a.trend.current - b.trend.current || a.trend.current - a.trend.previous - (b.trend.current - b.trend.previous),
  first_seen: (a, b) => a.firstSeen - b.firstSeen,
  last_seen: (a, b) => a.lastSeen - b.lastSeen,
  // Nobody sorts after every name, whichever the direction.
  assignee: (a, b) => (a.assignee === null ? (b.assignee === null ? 0 : 1) : b.assignee === null ? -1 : text(a.assignee.name, b.assignee.name)),
};

/** True for a column the issues table sorts by. */
export const isIssueSort = (sort: string): boolean => sort === IMPACT_SORT || Object.hasOwn(ASCENDING, sort);

/**
 * The issues, already in impact order, in the order the user asked for. Impact (the default, and any
 * unknown column) keeps regressions on top; any other column sorts every state together, as asked.
 */
export function sortIssues(ranked: readonly IssueSummary[], sort: string, dir: SortDir): IssueSummary[] {
  const by = ASCENDING[sort];
  if (sort === IMPACT_SORT || by === undefined) return dir === "asc" ? [...ranked].reverse() : [...ranked];
  const sign = dir === "asc" ? 1 : -1;
  const rank = new Map(ranked.map((issue, i) => [issue.id, i]));
  return [...ranked].sort((a, b) => {
    if (sort === "assignee" && (a.assignee === null) !== (b.assignee === null)) return by(a, b);
    return sign * by(a, b) || rank.get(a.id)! - rank.get(b.id)!;
  });
}
