import type { IssueCounts } from "@/lib/contracts/issue-counts";
import { countIssueStates } from "@/lib/triage/issue-counts";
import { stateAt, type Triage } from "@/lib/triage/issue-state";
import type { Executor } from "../client";

/**
 * A project's issue counts per state as of `now` (an ignore whose date has passed counts as open),
 * from the triage columns alone: what the navigation's badge reads on every page.
 */
export async function countIssuesByState(db: Executor, project: string, now: number): Promise<IssueCounts> {
  const rows = await db.all<Triage>(
    `SELECT state, resolve_mode AS "resolveMode", resolve_release AS "resolveRelease", resolved_at AS "resolvedAt", ignore_mode AS "ignoreMode", ignore_limit AS "ignoreLimit"
     FROM issues WHERE project_id = ?`,
    [project],
  );
  return countIssueStates(rows.map((r) => stateAt({ ...r, ignoreLimit: r.ignoreLimit === null ? null : Number(r.ignoreLimit) }, now)));
}
