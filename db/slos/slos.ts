import type { Executor } from "../client";
import { createAlertRule, deleteAlertRule, listAlertRules } from "../alerts/rules";
import type { Slo, SloCreate, SloPatch } from "@/lib/contracts/slos";

interface SloRow {
  id: number | string;
  project_id: string;
  name: string;
  tools: string;
  objective: string;
  window_days: number | string;
  count_declines: number | boolean;
  count_recovered: number | boolean;
  created_at: number | string;
  updated_at: number | string;
}

const COLUMNS = "id, project_id, name, tools, objective, window_days, count_declines, count_recovered, created_at, updated_at";

function toSlo(r: SloRow): Slo {
  return {
    id: Number(r.id),
    project: r.project_id,
    name: r.name,
    tools: JSON.parse(r.tools) as string[],
    objective: Number(r.objective),
    windowDays: Number(r.window_days),
    countDeclines: Boolean(Number(r.count_declines)),
    countRecovered: Boolean(Number(r.count_recovered)),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** The project's SLOs, oldest first. */
export async function listSlos(db: Executor, project: string): Promise<Slo[]> {
  return (await db.all<SloRow>(`SELECT ${COLUMNS} FROM slos WHERE project_id = ? ORDER BY id`, [project])).map(toSlo);
}

export async function getSlo(db: Executor, id: number): Promise<Slo | null> {
  const row = await db.get<SloRow>(`SELECT ${COLUMNS} FROM slos WHERE id = ?`, [id]);
  return row ? toSlo(row) : null;
}

/** The burn-rate alert rules of an SLO (the one made with it, and any made since on the Alerts page). */
export async function sloAlertRuleIds(db: Executor, project: string, sloId: number): Promise<number[]> {
  return (await listAlertRules(db, project)).filter((r) => r.params.kind === "slo_burn" && r.params.slo === sloId).map((r) => r.id);
}

/** Creates an SLO and its burn-rate alert rule, so a new SLO is alerted on like any rule (muted, snoozed, routed on the Alerts page). */
export async function createSlo(db: Executor, slo: SloCreate, now: number): Promise<{ slo: Slo; ruleId: number }> {
  const row = await db.get<SloRow>(
    `INSERT INTO slos (project_id, name, tools, objective, window_days, count_declines, count_recovered, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    [slo.project, slo.name, JSON.stringify(slo.tools), String(slo.objective), slo.windowDays, slo.countDeclines ? 1 : 0, slo.countRecovered ? 1 : 0, now, now],
  );
  const created = toSlo(row!);
  const rule = await createAlertRule(db, { project: slo.project, name: `SLO ${slo.name}: burn rate`, params: { kind: "slo_burn", slo: created.id }, receiverId: slo.receiverId }, now);
  return { slo: created, ruleId: rule.id };
}

/** Applies an edit; null when the SLO does not exist. A changed definition forgets its alerts' states: they measured something else. */
export async function updateSlo(db: Executor, id: number, patch: SloPatch, now: number): Promise<Slo | null> {
  const current = await getSlo(db, id);
  if (!current) return null;
  const next = { ...current, ...patch };
  const redefined = (["tools", "objective", "windowDays", "countDeclines", "countRecovered"] as const).some((k) => patch[k] !== undefined && JSON.stringify(patch[k]) !== JSON.stringify(current[k]));
  if (redefined) {
    for (const ruleId of await sloAlertRuleIds(db, current.project, id)) await db.run("DELETE FROM alert_states WHERE rule_id = ?", [ruleId]);
  }
  const row = await db.get<SloRow>(
    `UPDATE slos SET name = ?, tools = ?, objective = ?, window_days = ?, count_declines = ?, count_recovered = ?, updated_at = ? WHERE id = ? RETURNING ${COLUMNS}`,
    [next.name, JSON.stringify(next.tools), String(next.objective), next.windowDays, next.countDeclines ? 1 : 0, next.countRecovered ? 1 : 0, now, id],
  );
  return row ? toSlo(row) : null;
}

/** Deletes an SLO with its burn-rate alert rules (their notifications stay in the history). */
export async function deleteSlo(db: Executor, slo: Slo): Promise<boolean> {
  for (const ruleId of await sloAlertRuleIds(db, slo.project, slo.id)) await deleteAlertRule(db, ruleId);
  return (await db.run("DELETE FROM slos WHERE id = ?", [slo.id])) > 0;
}
