import { issueId } from "@/lib/triage/issue-batch";
import { recordSystemChanges } from "../audit/audited-change";
import type { Executor } from "../store/types";

// Declines are the tool's answers, so ingest opens no issue for them (docs/issues.md). A drift
// finding or a firing alert rule that names a declined code says otherwise: these open the issue
// (or reopen a resolved or ignored one) in the finding's or the alert's transaction, never at ingest.

/** A drift finding or alert rule naming a tool's code, and why it opens the issue. */
export interface DeclineTrigger {
  tool: string;
  code: string;
  /** Who opens it, as the history and the audit log name them: `drift` or `alert rule`. */
  actor: string;
  /** What says so, for the history: "drift finding …", "alert rule …" (after "opened by "). */
  by: string;
}

interface Declines {
  calls: number | string;
  runs: number | string;
  first: number | string | null;
  last: number | string | null;
}

const byToolCode = (a: DeclineTrigger, b: DeclineTrigger) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

/**
 * Opens or reopens the issue of each trigger whose tool has stored declines with that code; a code
 * that never declined, and an issue that is already open or regressed, are left alone. A new issue
 * starts from the declines stored so far (calls, runs, first and last seen). Visits (tool, code) in
 * order, as ingest does, so it never waits on an ingest's issue locks in a cycle. Answers the ids of
 * the issues it opened.
 */
export async function openDeclinedIssues(tx: Executor, projectId: string, triggers: readonly DeclineTrigger[], now: number): Promise<string[]> {
  const opened: string[] = [];
  const seen = new Set<string>();
  for (const t of [...triggers].sort(byToolCode)) {
    const key = JSON.stringify([t.tool, t.code]);
    if (t.code === "" || seen.has(key)) continue;
    seen.add(key);
    const d = await tx.get<Declines>(
      `SELECT count(*) AS calls, count(DISTINCT run_id) AS runs, min(started_at) AS first, max(started_at) AS last
       FROM tool_call_spans WHERE project_id = ? AND code = ? AND tool = ? AND outcome = 'declined'`,
      [projectId, t.code, t.tool],
    );
    if (!d || Number(d.calls) === 0) continue;
    const id = issueId(projectId, t.tool, t.code);
    const created = await tx.all(
      `INSERT INTO issues (project_id, id, tool, code, state, failures, unrecovered, retries, wait_ms, runs, worst_hour, first_seen, last_seen, updated_at)
       VALUES (?, ?, ?, ?, 'open', ?, 0, 0, 0, ?, 0, ?, ?, ?) ON CONFLICT (project_id, tool, code) DO NOTHING RETURNING id`,
      [projectId, id, t.tool, t.code, Number(d.calls), Number(d.runs), Number(d.first), Number(d.last), now],
    );
    let from: string | null = null;
    if (created.length > 0) {
      await tx.run(
        `INSERT INTO issue_runs (project_id, issue_id, run_id) SELECT DISTINCT project_id, ?, run_id FROM tool_call_spans
         WHERE project_id = ? AND code = ? AND tool = ? AND outcome = 'declined' ON CONFLICT (project_id, issue_id, run_id) DO NOTHING`,
        [id, projectId, t.code, t.tool],
      );
    } else {
      const row = await tx.get<{ state: string }>("SELECT state FROM issues WHERE project_id = ? AND id = ?", [projectId, id]);
      if (!row || row.state === "open" || row.state === "regressed") continue;
      from = row.state;
      await tx.run(
        `UPDATE issues SET state = 'open', resolve_mode = NULL, resolve_release = NULL, resolved_at = NULL, ignore_mode = NULL, ignore_limit = NULL, updated_at = ?
         WHERE project_id = ? AND id = ?`,
        [now, projectId, id],
      );
    }
    const detail = `${from === null ? "opened" : "reopened"} by ${t.by}`;
    await tx.run(
      "INSERT INTO issue_events (project_id, issue_id, at, actor_user_id, actor_label, kind, detail) VALUES (?, ?, ?, NULL, ?, ?, ?)",
      [projectId, id, now, t.actor, from === null ? "created" : "state", detail],
    );
    await recordSystemChanges(tx, now, [{ projectId, action: "issue.state_changed", target: `${t.tool} ${t.code}`, detail: { issueId: id, from, to: "open", change: detail } }]);
    opened.push(id);
  }
  return opened;
}
