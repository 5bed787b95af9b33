import { index, int, primaryKey, table, text, uniqueIndex } from "./columns";
import { pgTableOf } from "./pg-table";

/**
 * One issue per failing code per tool (docs/issues.md), created by ingest the first time the code
 * fails (db/issues/ingest-issues.ts): its triage (lib/triage/issue-state.ts), assignee and running
 * totals. The id is derived from project, tool and code, so two nodes creating it agree on it; the
 * unique key makes the second insert a no-op.
 */
export const issues = table(
  "issues",
  {
    projectId: text("project_id").notNull(),
    id: text("id").notNull(),
    tool: text("tool").notNull(),
    /** The span's code, else its outcome (`timed_out`, `refused`…) when the source sent no code. */
    code: text("code").notNull(),
    state: text("state").notNull(),
    resolveMode: text("resolve_mode"),
    resolveRelease: text("resolve_release"),
    resolvedAt: int("resolved_at"),
    ignoreMode: text("ignore_mode"),
    ignoreLimit: int("ignore_limit"),
    assigneeUserId: text("assignee_user_id"),
    /** Failing attempts. */
    failures: int("failures").notNull(),
    /** Failing attempts the run loop could not recover from (failed the run, failed closed, exhausted, budget capped). */
    unrecovered: int("unrecovered").notNull(),
    /** Failing attempts that were retried, and the wait (backoff) spent before those retries. */
    retries: int("retries").notNull(),
    waitMs: int("wait_ms").notNull(),
    /** Distinct runs with a failure (one row each in issue_runs). */
    runs: int("runs").notNull(),
    /** The most failures in one hour: the "gets worse" ignore compares against it. */
    worstHour: int("worst_hour").notNull(),
    firstSeen: int("first_seen").notNull(),
    lastSeen: int("last_seen").notNull(),
    updatedAt: int("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ name: "issues_pk", columns: [t.projectId, t.id] }),
    uniqueIndex("issues_project_tool_code_idx").on(t.projectId, t.tool, t.code),
    index("issues_project_last_seen_idx").on(t.projectId, t.lastSeen),
  ],
);

export const issuesPg = pgTableOf(issues);
