import type { AuditAction, AuditEntry } from "@/lib/contracts/audit";
import type { AuditLogAnswer, AuditLogQuery } from "@/lib/contracts/audit-log";
import type { Executor } from "../client";

const COLUMNS = `id, at, project_id AS "projectId", actor_user_id AS "actorUserId", actor_label AS "actorLabel", action, target, detail, address`;

// A member's sign-ins are instance-level entries (no project): they show in every project the person
// belongs to, the failed ones too when they name a member's email (a guess at someone's password).
const MEMBER_IDS = "SELECT m.user_id FROM memberships m WHERE m.project_id = @project";
const MEMBER_EMAILS = "SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.project_id = @project";

// Two index ranges (project_id, at) instead of one OR that would scan the whole log.
const VISIBLE = `
  SELECT ${COLUMNS} FROM audit_log WHERE project_id = @project
  UNION ALL
  SELECT ${COLUMNS} FROM audit_log
  WHERE project_id IS NULL AND action IN ('auth.sign_in', 'auth.sign_in_failed')
    AND (actor_user_id IN (${MEMBER_IDS}) OR lower(actor_label) IN (${MEMBER_EMAILS}) OR lower(target) IN (${MEMBER_EMAILS}))`;

interface Row {
  id: number | string;
  at: number | string;
  projectId: string | null;
  actorUserId: string | null;
  actorLabel: string;
  action: AuditAction;
  target: string | null;
  detail: string | null;
  address: string | null;
}

function parseDetail(detail: string | null): AuditEntry["detail"] {
  if (detail === null) return null;
  try {
    const value: unknown = JSON.parse(detail);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A project's audit log, newest first, with its members' sign-ins; one page, and how many entries matched. */
export async function listAuditLog(db: Executor, project: string, q: AuditLogQuery): Promise<AuditLogAnswer> {
  const where: string[] = [];
  const params: Record<string, unknown> = { project };
  if (q.action !== undefined) {
    where.push("a.action = @action");
    params.action = q.action;
  }
  if (q.actor !== undefined) {
    where.push(`lower(a."actorLabel") = @actor`);
    params.actor = q.actor;
  }
  const filter = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
  const [total, rows] = await Promise.all([
    db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (${VISIBLE}) a ${filter}`, params),
    db.all<Row>(`SELECT * FROM (${VISIBLE}) a ${filter} ORDER BY a.at DESC, a.id DESC LIMIT @limit OFFSET @offset`, { ...params, limit: q.limit, offset: q.offset }),
  ]);
  const entries = rows.map((r): AuditEntry => ({ ...r, id: Number(r.id), at: Number(r.at), detail: parseDetail(r.detail) }));
  return { entries, page: { total: Number(total?.n ?? 0), offset: q.offset, limit: q.limit } };
}
