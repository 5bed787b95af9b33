import { decide, type TriageAction } from "@/lib/triage/issue-state";
import type { Executor } from "../client";
import type { IssueRow } from "./list-issues";

/** Who changes an issue, as the audit log names them. */
export interface IssueActor {
  actorUserId: string | null;
  actorLabel: string;
}

async function addEvent(db: Executor, row: IssueRow, actor: IssueActor, now: number, kind: string, detail: string): Promise<void> {
  await db.run(
    "INSERT INTO issue_events (project_id, issue_id, at, actor_user_id, actor_label, kind, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
    [row.project, row.id, now, actor.actorUserId, actor.actorLabel, kind, detail],
  );
}

/** A decision in words, for the history. */
function describe(action: TriageAction, release: string | null): string {
  if (action.state === "open") return "reopened";
  if (action.state === "resolved") return action.mode === "now" ? "resolved" : release === null ? "resolved (no release seen yet)" : `resolved in the release after ${release}`;
  if (action.mode === "until_date") return `ignored until ${new Date(action.until).toISOString()}`;
  if (action.mode === "until_count") return `ignored until ${action.failures} more failures`;
  return "ignored until it gets worse";
}

/**
 * Applies a user's triage decision, judged on the issue's counts and releases as stored in the
 * transaction; answers the new state and its description.
 */
export async function triageIssue(db: Executor, row: IssueRow, action: TriageAction, actor: IssueActor, now: number): Promise<{ state: string; detail: string }> {
  const releases = await db.all<{ release: string; firstSeen: number }>(
    `SELECT release, first_seen AS "firstSeen" FROM issue_releases WHERE project_id = ? AND issue_id = ? ORDER BY release`,
    [row.project, row.id],
  );
  const t = decide(action, { now, totalFailures: row.failures, worstHour: row.worstHour, releases });
  await db.run(
    "UPDATE issues SET state = ?, resolve_mode = ?, resolve_release = ?, resolved_at = ?, ignore_mode = ?, ignore_limit = ?, updated_at = ? WHERE project_id = ? AND id = ?",
    [t.state, t.resolveMode, t.resolveRelease, t.resolvedAt, t.ignoreMode, t.ignoreLimit, now, row.project, row.id],
  );
  const detail = action.state === "resolved" && action.mode === "in_release" ? `resolved in ${action.release}` : describe(action, t.resolveRelease);
  await addEvent(db, row, actor, now, "state", detail);
  return { state: t.state, detail };
}

/** Assigns the issue to a member (by id and shown name) or to nobody. */
export async function assignIssue(db: Executor, row: IssueRow, assignee: { userId: string; name: string } | null, actor: IssueActor, now: number): Promise<void> {
  await db.run("UPDATE issues SET assignee_user_id = ?, updated_at = ? WHERE project_id = ? AND id = ?", [assignee?.userId ?? null, now, row.project, row.id]);
  await addEvent(db, row, actor, now, "assigned", assignee === null ? "unassigned" : `assigned to ${assignee.name}`);
}

/** Adds a note to the issue's history. */
export async function addIssueNote(db: Executor, row: IssueRow, text: string, actor: IssueActor, now: number): Promise<void> {
  await addEvent(db, row, actor, now, "note", text);
}
