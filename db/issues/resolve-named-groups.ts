import { codeOfNamedNote, groupIssueCode, namedNote } from "@/lib/triage/group-issue";
import { issueId } from "@/lib/triage/issue-batch";
import { recordSystemChanges } from "../audit/audited-change";
import { jsonRows } from "../store/dialect-sql";
import type { Executor } from "../store/types";

// A failure group's issue (docs/issues.md) stands for failures nobody has named yet. Once a
// classification rule names the group, the re-classification job re-codes its calls, and the group's
// issue is resolved in the job's transaction with a note saying which code and rule named it; its
// detail then links the code's issue. A later failure still in the group regresses it as usual.

/** A stored failure as it was before this re-classification (its group, if any). */
export interface ReclassifiedCall {
  spanId: string;
  tool: string;
  groupKey: string | null;
}

/** A call that was in a failure group and that a rule has now given a code. */
interface NamedGroupCall {
  tool: string;
  groupKey: string;
  code: string;
  ruleId: string;
  ruleVersion: number;
}

/** Who resolves a named group's issue, as its history names it. */
const NAMING_ACTOR = "classification";

const byToolKey = (a: NamedGroupCall, b: NamedGroupCall) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : a.groupKey < b.groupKey ? -1 : a.groupKey > b.groupKey ? 1 : 0);

/**
 * After a chunk of re-classification has updated its calls: the calls that were in a group and that
 * a rule now codes, read back as stored (their code, rule and version).
 */
async function namedGroupCalls(tx: Executor, projectId: string, before: readonly ReclassifiedCall[]): Promise<NamedGroupCall[]> {
  const grouped = before.filter((c) => c.groupKey !== null);
  if (grouped.length === 0) return [];
  const now = await tx.all<{ spanId: string; code: string | null; ruleId: string | null; ruleVersion: number | string | null }>(
    `SELECT f.span_id AS "spanId", s.code, f.rule_id AS "ruleId", f.rule_version AS "ruleVersion"
     FROM failure_facts f JOIN tool_call_spans s ON s.project_id = f.project_id AND s.span_id = f.span_id AND s.started_at = f.started_at
     WHERE f.project_id = @project AND f.rule_id IS NOT NULL AND f.span_id IN (SELECT value ->> 0 FROM ${jsonRows(tx.dialect, "@spans")})`,
    { project: projectId, spans: JSON.stringify(grouped.map((c) => [c.spanId])) },
  );
  const bySpan = new Map(grouped.map((c) => [c.spanId, c]));
  return now.flatMap((r) => {
    const was = bySpan.get(r.spanId);
    if (!was || r.code === null || r.ruleId === null || r.ruleVersion === null) return [];
    return [{ tool: was.tool, groupKey: was.groupKey!, code: r.code, ruleId: r.ruleId, ruleVersion: Number(r.ruleVersion) }];
  });
}

/**
 * Resolves the open, regressed or ignored issue of each group whose calls (`before`, as they were) a
 * rule now names, noting "named as <code> by rule “<name>” v<N>" in its history (actor
 * `classification`) and in the audit log (`system`). Run after the chunk's rollups are written, so
 * the job takes its locks in ingest's order (spans, rollups, issues), and groups in (tool, code)
 * order, as ingest locks issues. Answers the ids of the issues it resolved.
 */
export async function resolveNamedGroupIssues(tx: Executor, projectId: string, before: readonly ReclassifiedCall[], now: number): Promise<string[]> {
  const calls = await namedGroupCalls(tx, projectId, before);
  const resolved: string[] = [];
  const seen = new Set<string>();
  for (const c of [...calls].sort(byToolKey)) {
    const key = JSON.stringify([c.tool, c.groupKey]);
    if (seen.has(key)) continue;
    seen.add(key);
    const id = issueId(projectId, c.tool, groupIssueCode(c.groupKey));
    const row = await tx.get<{ state: string }>("SELECT state FROM issues WHERE project_id = ? AND id = ?", [projectId, id]);
    if (!row || row.state === "resolved") continue;
    const rule = await tx.get<{ name: string }>("SELECT name FROM classification_rules WHERE project_id = ? AND id = ?", [projectId, c.ruleId]);
    const note = namedNote({ code: c.code, name: rule?.name ?? c.ruleId, version: c.ruleVersion });
    await tx.run(
      `UPDATE issues SET state = 'resolved', resolve_mode = 'now', resolve_release = NULL, resolved_at = ?, ignore_mode = NULL, ignore_limit = NULL, updated_at = ?
       WHERE project_id = ? AND id = ?`,
      [now, now, projectId, id],
    );
    await tx.run(
      "INSERT INTO issue_events (project_id, issue_id, at, actor_user_id, actor_label, kind, detail) VALUES (?, ?, ?, NULL, ?, 'state', ?)",
      [projectId, id, now, NAMING_ACTOR, note],
    );
    await recordSystemChanges(tx, now, [{ projectId, action: "issue.state_changed", target: `${c.tool} ${groupIssueCode(c.groupKey)}`, detail: { issueId: id, from: row.state, to: "resolved", change: note } }]);
    resolved.push(id);
  }
  return resolved;
}

/** The code a group's issue was last named as (its latest naming note) and that code's issue, if it has one. */
export async function namedAsOf(db: Executor, projectId: string, tool: string, history: readonly { actor: string; kind: string; detail: string }[]): Promise<{ code: string; issueId: string | null } | null> {
  // Only the job's own notes: a user's note could read the same.
  const code = history.map((e) => (e.actor === NAMING_ACTOR && e.kind === "state" ? codeOfNamedNote(e.detail) : null)).findLast((c) => c !== null) ?? null;
  if (code === null) return null;
  const row = await db.get<{ id: string }>("SELECT id FROM issues WHERE project_id = ? AND tool = ? AND code = ?", [projectId, tool, code]);
  return { code, issueId: row?.id ?? null };
}
