import { classificationRuleSchema, type ClassificationRule, type RuleInput } from "@/lib/contracts/classification";
import type { Executor } from "../client";
import { recordConfigEvent } from "./config-events";

interface RuleRow {
  id: string;
  version: number;
  position: number;
  name: string;
  enabled: number;
  match: string;
  set_fields: string;
  override_emitter: number;
  updated_at: number;
}

const COLUMNS = "id, version, position, name, enabled, match, set_fields, override_emitter, updated_at";

const toRule = (r: RuleRow): ClassificationRule =>
  classificationRuleSchema.parse({
    id: r.id, version: Number(r.version), position: Number(r.position), name: r.name, enabled: Number(r.enabled) === 1,
    match: JSON.parse(r.match), set: JSON.parse(r.set_fields), overrideEmitter: Number(r.override_emitter) === 1, updatedAt: Number(r.updated_at),
  });

/** A project's rules in their order (deleted ones left out). */
export async function listClassificationRules(db: Executor, projectId: string): Promise<ClassificationRule[]> {
  const rows = await db.all<RuleRow>(`SELECT ${COLUMNS} FROM classification_rules WHERE project_id = ? AND deleted_at IS NULL ORDER BY position, id`, [projectId]);
  return rows.map(toRule);
}

/** One live rule of a project, or null. */
export async function getClassificationRule(db: Executor, projectId: string, id: string): Promise<ClassificationRule | null> {
  const row = await db.get<RuleRow>(`SELECT ${COLUMNS} FROM classification_rules WHERE project_id = ? AND id = ? AND deleted_at IS NULL`, [projectId, id]);
  return row ? toRule(row) : null;
}

/** A live rule by its id alone (ids are random and unique across projects), with its project; null when none. */
export async function findClassificationRule(db: Executor, id: string): Promise<(ClassificationRule & { project: string }) | null> {
  const row = await db.get<RuleRow & { project_id: string }>(`SELECT project_id, ${COLUMNS} FROM classification_rules WHERE id = ? AND deleted_at IS NULL ORDER BY project_id LIMIT 1`, [id]);
  return row ? { ...toRule(row), project: row.project_id } : null;
}

/** The names of a project's rules, deleted ones included, by id: what a stored call's rule id is shown as. */
export async function ruleNamesById(db: Executor, projectId: string): Promise<Map<string, string>> {
  const rows = await db.all<{ id: string; name: string }>("SELECT id, name FROM classification_rules WHERE project_id = ? ORDER BY id", [projectId]);
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A project's classification switches and progress. */
export interface ClassificationState {
  builtinEnabled: boolean;
  /** Bumped by every rule change. */
  revision: number;
  /** The revision stored calls were last brought to; behind `revision` while the job runs. */
  appliedRevision: number;
  examined: number;
  changed: number;
  total: number;
}

const DEFAULT_STATE: ClassificationState = { builtinEnabled: true, revision: 0, appliedRevision: 0, examined: 0, changed: 0, total: 0 };

/** A project's state; a project that never changed anything has the pack on and revision 0. */
export async function getClassificationState(db: Executor, projectId: string): Promise<ClassificationState> {
  const r = await db.get<{ builtin_enabled: number; revision: number; applied_revision: number; examined: number; changed: number; total: number }>(
    "SELECT builtin_enabled, revision, applied_revision, examined, changed, total FROM classification_state WHERE project_id = ?",
    [projectId],
  );
  if (!r) return { ...DEFAULT_STATE };
  return {
    builtinEnabled: Number(r.builtin_enabled) === 1, revision: Number(r.revision), appliedRevision: Number(r.applied_revision),
    examined: Number(r.examined), changed: Number(r.changed), total: Number(r.total),
  };
}

/** The revision of a project's rules (0 when never changed): ingest's cheap check of its cached rules. */
export async function getClassificationRevision(db: Executor, projectId: string): Promise<number> {
  const r = await db.get<{ revision: number }>("SELECT revision FROM classification_state WHERE project_id = ?", [projectId]);
  return r ? Number(r.revision) : 0;
}

/** Bumps the revision (creating the state row) and restarts the re-classification pass's progress; returns the new revision. */
export async function bumpRevision(db: Executor, projectId: string, now: number, builtinEnabled?: boolean): Promise<number> {
  const current = await getClassificationState(db, projectId);
  const revision = current.revision + 1;
  const builtin = (builtinEnabled ?? current.builtinEnabled) ? 1 : 0;
  await db.run(
    `INSERT INTO classification_state (project_id, builtin_enabled, revision, applied_revision, examined, changed, total, updated_at)
     VALUES (?, ?, ?, ?, 0, 0, 0, ?)
     ON CONFLICT (project_id) DO UPDATE SET builtin_enabled = excluded.builtin_enabled, revision = excluded.revision,
       examined = 0, changed = 0, total = 0, updated_at = excluded.updated_at`,
    [projectId, builtin, revision, current.appliedRevision, now],
  );
  return revision;
}

/** Appends a version row (the rule's body as saved; null for a deletion). */
async function recordVersion(db: Executor, projectId: string, ruleId: string, version: number, body: RuleInput | null, action: string, actor: string, now: number) {
  await db.run("INSERT INTO classification_rule_versions (project_id, rule_id, version, body, action, actor, at) VALUES (?, ?, ?, ?, ?, ?, ?)", [
    projectId, ruleId, version, body === null ? null : JSON.stringify(body), action, actor, now,
  ]);
}

/** Creates a rule at the end of the order (version 1). */
export async function createClassificationRule(db: Executor, projectId: string, id: string, input: RuleInput, actor: string, now: number): Promise<ClassificationRule> {
  const last = await db.get<{ n: number | null }>("SELECT max(position) AS n FROM classification_rules WHERE project_id = ? AND deleted_at IS NULL", [projectId]);
  const position = last?.n === null || last?.n === undefined ? 0 : Number(last.n) + 1;
  await db.run(
    `INSERT INTO classification_rules (project_id, id, version, position, name, enabled, match, set_fields, override_emitter, created_at, updated_at, deleted_at)
     VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
    [projectId, id, position, input.name, input.enabled ? 1 : 0, JSON.stringify(input.match), JSON.stringify(input.set), input.overrideEmitter ? 1 : 0, now, now],
  );
  await recordVersion(db, projectId, id, 1, input, "created", actor, now);
  await bumpRevision(db, projectId, now);
  return (await getClassificationRule(db, projectId, id))!;
}

/** Saves an edit as the rule's next version; null when the rule does not exist. */
export async function updateClassificationRule(db: Executor, projectId: string, id: string, input: RuleInput, actor: string, now: number): Promise<ClassificationRule | null> {
  const current = await getClassificationRule(db, projectId, id);
  if (!current) return null;
  const version = current.version + 1;
  await db.run(
    `UPDATE classification_rules SET version = ?, name = ?, enabled = ?, match = ?, set_fields = ?, override_emitter = ?, updated_at = ?
     WHERE project_id = ? AND id = ?`,
    [version, input.name, input.enabled ? 1 : 0, JSON.stringify(input.match), JSON.stringify(input.set), input.overrideEmitter ? 1 : 0, now, projectId, id],
  );
  await recordVersion(db, projectId, id, version, input, "updated", actor, now);
  await bumpRevision(db, projectId, now);
  return getClassificationRule(db, projectId, id);
}

/** Deletes a rule (its row stays, marked, so calls it classified still name it); false when there was none. */
export async function deleteClassificationRule(db: Executor, projectId: string, id: string, actor: string, now: number): Promise<boolean> {
  const current = await getClassificationRule(db, projectId, id);
  if (!current) return false;
  await db.run("UPDATE classification_rules SET deleted_at = ?, version = ?, updated_at = ? WHERE project_id = ? AND id = ?", [now, current.version + 1, now, projectId, id]);
  await recordVersion(db, projectId, id, current.version + 1, null, "deleted", actor, now);
  await bumpRevision(db, projectId, now);
  return true;
}

/**
 * Puts the project's rules in the given order; every live rule must be named exactly once. A new
 * order is recorded as a change of the classification (config-events.ts); the same order changes nothing.
 */
export async function reorderClassificationRules(db: Executor, projectId: string, ids: readonly string[], actor: string, now: number): Promise<"invalid" | "unchanged" | "reordered"> {
  const live = await listClassificationRules(db, projectId);
  if (live.length !== ids.length || new Set(ids).size !== ids.length || !live.every((r) => ids.includes(r.id))) return "invalid";
  if (live.every((r, i) => r.id === ids[i])) return "unchanged";
  for (let i = 0; i < ids.length; i++) await db.run("UPDATE classification_rules SET position = ?, updated_at = ? WHERE project_id = ? AND id = ?", [i, now, projectId, ids[i]]);
  const revision = await bumpRevision(db, projectId, now);
  await recordConfigEvent(db, projectId, { revision, action: "reordered", actor, at: now });
  return "reordered";
}

/**
 * Switches the built-in pack for a project, recorded as a change of the classification; false when
 * it already was so (nothing changes).
 */
export async function setBuiltinPack(db: Executor, projectId: string, enabled: boolean, actor: string, now: number): Promise<boolean> {
  if ((await getClassificationState(db, projectId)).builtinEnabled === enabled) return false;
  const revision = await bumpRevision(db, projectId, now, enabled);
  await recordConfigEvent(db, projectId, { revision, action: enabled ? "builtin_on" : "builtin_off", actor, at: now });
  return true;
}
