import type { RuleEdit } from "@/lib/drift/rule-caused";
import type { Executor } from "../client";

/** A change of a project's classification that is no rule's version. */
export type ConfigEventAction = "reordered" | "builtin_on" | "builtin_off";

/** Records a reorder or a pack switch at the revision it bumped to; its codes are filled in by the re-classification job. */
export async function recordConfigEvent(db: Executor, projectId: string, e: { revision: number; action: ConfigEventAction; actor: string; at: number }): Promise<void> {
  await db.run("INSERT INTO classification_events (project_id, revision, action, actor, at, codes) VALUES (?, ?, ?, ?, ?, '[]')", [
    projectId, e.revision, e.action, e.actor, e.at,
  ]);
}

/** A stored call the re-classification changed: the revision it had been classified at, and its code before and after. */
export interface CodeMove {
  fromRevision: number;
  codes: readonly (string | null)[];
}

/**
 * Adds the codes of the calls a re-classification chunk changed to every reorder or pack switch it
 * brought them past (revision above the call's, up to `toRevision`). Calls past several changes at
 * once count for each: which of them moved the call is not told apart.
 */
export async function recordMovedCodes(db: Executor, projectId: string, moves: readonly CodeMove[], toRevision: number): Promise<void> {
  if (moves.length === 0) return;
  const lowest = Math.min(...moves.map((m) => m.fromRevision));
  const events = await db.all<{ revision: number; codes: string }>(
    "SELECT revision, codes FROM classification_events WHERE project_id = ? AND revision > ? AND revision <= ? ORDER BY revision",
    [projectId, lowest, toRevision],
  );
  for (const e of events) {
    const before = JSON.parse(e.codes) as string[];
    const codes = new Set(before);
    for (const m of moves) if (m.fromRevision < Number(e.revision)) for (const c of m.codes) if (c !== null) codes.add(c);
    if (codes.size === before.length) continue;
    await db.run("UPDATE classification_events SET codes = ? WHERE project_id = ? AND revision = ?", [JSON.stringify([...codes].sort()), projectId, e.revision]);
  }
}

/**
 * A project's reorders and pack switches as changes of its classification, oldest first; with a
 * code, only those that moved it, and those whose re-classification has not finished yet (they may
 * concern any code, `pending`).
 */
export async function listConfigEdits(db: Executor, projectId: string, code?: string): Promise<RuleEdit[]> {
  const rows = await db.all<{ revision: number; action: ConfigEventAction; at: number; codes: string; applied: number | null }>(
    `SELECT e.revision, e.action, e.at, e.codes, s.applied_revision AS applied
     FROM classification_events e LEFT JOIN classification_state s ON s.project_id = e.project_id
     WHERE e.project_id = ? ORDER BY e.revision`,
    [projectId],
  );
  const out: RuleEdit[] = [];
  for (const r of rows) {
    const pending = Number(r.revision) > Number(r.applied ?? 0);
    const codes = JSON.parse(r.codes) as string[];
    if (code !== undefined && !pending && !codes.includes(code)) continue;
    out.push({ ruleId: null, name: null, version: null, action: r.action, at: Number(r.at), codes, ...(pending ? { pending } : {}) });
  }
  return out;
}
