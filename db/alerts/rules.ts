import type { Executor } from "../client";
import { DEFAULT_ALERT_RULES } from "@/lib/alerts/default-rules";
import { alertRuleParamsSchema, type AlertRule, type AlertRuleCreate, type AlertRulePatch } from "@/lib/contracts/alerts";

interface RuleRow {
  id: number;
  project_id: string;
  name: string;
  params: string;
  receiver_id: number | null;
  muted_at: number | null;
  snoozed_until: number | null;
  created_at: number;
  updated_at: number;
}

const COLUMNS = "id, project_id, name, params, receiver_id, muted_at, snoozed_until, created_at, updated_at";

function toRule(r: RuleRow): AlertRule {
  return {
    id: Number(r.id),
    project: r.project_id,
    name: r.name,
    params: alertRuleParamsSchema.parse(JSON.parse(r.params)),
    receiverId: r.receiver_id === null ? null : Number(r.receiver_id),
    muted: r.muted_at !== null,
    snoozedUntil: r.snoozed_until === null ? null : Number(r.snoozed_until),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export async function listAlertRules(db: Executor, project: string): Promise<AlertRule[]> {
  const rows = await db.all<RuleRow>(`SELECT ${COLUMNS} FROM alert_rules WHERE project_id = ? ORDER BY id`, [project]);
  return rows.map(toRule);
}

const ruleRow = (db: Executor, id: number) => db.get<RuleRow>(`SELECT ${COLUMNS} FROM alert_rules WHERE id = ?`, [id]);

export async function getAlertRule(db: Executor, id: number): Promise<AlertRule | null> {
  const row = await ruleRow(db, id);
  return row ? toRule(row) : null;
}

export async function createAlertRule(db: Executor, rule: AlertRuleCreate, now: number): Promise<AlertRule> {
  const row = await db.get<RuleRow>(
    `INSERT INTO alert_rules (project_id, name, kind, params, receiver_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    [rule.project, rule.name, rule.params.kind, JSON.stringify(rule.params), rule.receiverId, now, now],
  );
  return toRule(row!);
}

/** Applies an edit; null when the rule does not exist. Changing the params forgets the rule's states: they measured something else. */
export async function updateAlertRule(db: Executor, id: number, patch: AlertRulePatch, now: number): Promise<AlertRule | null> {
  const row = await ruleRow(db, id);
  if (!row) return null;
  const current = toRule(row);
  const params = patch.params ?? current.params;
  const mutedAt = patch.muted === undefined ? row.muted_at : patch.muted ? (row.muted_at ?? now) : null;
  const snoozedUntil = patch.snoozedUntil === undefined ? current.snoozedUntil : patch.snoozedUntil;
  const receiverId = patch.receiverId === undefined ? current.receiverId : patch.receiverId;
  if (patch.params) await db.run("DELETE FROM alert_states WHERE rule_id = ?", [id]);
  const updated = await db.get<RuleRow>(
    `UPDATE alert_rules SET name = ?, kind = ?, params = ?, receiver_id = ?, muted_at = ?, snoozed_until = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`,
    [patch.name ?? current.name, params.kind, JSON.stringify(params), receiverId, mutedAt, snoozedUntil, now, id],
  );
  return updated ? toRule(updated) : null;
}

/** Deletes a rule and its states; its notifications stay in the history. */
export async function deleteAlertRule(db: Executor, id: number): Promise<boolean> {
  await db.run("DELETE FROM alert_states WHERE rule_id = ?", [id]);
  return (await db.run("DELETE FROM alert_rules WHERE id = ?", [id])) > 0;
}

/** The rules a new project starts with. */
export async function createDefaultAlertRules(db: Executor, project: string, now: number): Promise<void> {
  for (const rule of DEFAULT_ALERT_RULES) await createAlertRule(db, { project, name: rule.name, params: rule.params, receiverId: null }, now);
}
