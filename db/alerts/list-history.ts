import type { Executor } from "../client";
import type { AlertNotification } from "@/lib/alerts/notification";
import type { AlertHistory, AlertNotificationRow } from "@/lib/contracts/alerts";
import type { AlertStatus } from "@/lib/contracts/alert-enums";

interface OutboxRow {
  id: number | string;
  rule_id: number | string;
  rule_name: string;
  receiver_name: string | null;
  receiver_id: number | string | null;
  status: AlertStatus;
  body: string;
  created_at: number | string;
  next_attempt_at: number | string | null;
  delivered_at: number | string | null;
  gave_up_at: number | string | null;
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** A project's notifications, newest first, each with every delivery attempt. */
export async function listAlertHistory(db: Executor, q: { project: string; offset: number; limit: number }): Promise<AlertHistory> {
  const total = await db.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM alert_outbox WHERE project_id = ?", [q.project]);
  const rows = await db.all<OutboxRow>(
    `SELECT o.id, o.rule_id, o.rule_name, r.name AS receiver_name, o.receiver_id, o.status, o.body, o.created_at, o.next_attempt_at, o.delivered_at, o.gave_up_at
     FROM alert_outbox o LEFT JOIN alert_receivers r ON r.id = o.receiver_id
     WHERE o.project_id = ? ORDER BY o.id DESC LIMIT ? OFFSET ?`,
    [q.project, q.limit, q.offset],
  );
  const ids = rows.map((r) => Number(r.id));
  const attempts = ids.length
    ? await db.all<{ outbox_id: number | string; attempted_at: number | string; http_status: number | string | null; error: string | null; duration_ms: number | string }>(
        `SELECT outbox_id, attempted_at, http_status, error, duration_ms FROM alert_attempts WHERE outbox_id IN (${ids.map(() => "?").join(", ")}) ORDER BY id`,
        ids,
      )
    : [];
  const byOutbox = new Map<number, AlertNotificationRow["attempts"]>();
  for (const a of attempts) {
    const list = byOutbox.get(Number(a.outbox_id)) ?? [];
    list.push({ at: Number(a.attempted_at), httpStatus: num(a.http_status), error: a.error, durationMs: Number(a.duration_ms) });
    byOutbox.set(Number(a.outbox_id), list);
  }
  const notifications = rows.map((r): AlertNotificationRow => {
    const body = JSON.parse(r.body) as AlertNotification;
    const delivery = r.delivered_at !== null ? "delivered" : r.gave_up_at !== null ? "gave_up" : r.next_attempt_at !== null ? "pending" : "unsent";
    return {
      id: Number(r.id),
      ruleId: Number(r.rule_id),
      ruleName: r.rule_name,
      receiver: r.receiver_name,
      status: r.status,
      tool: body.tool,
      code: body.code,
      value: body.value,
      link: body.link,
      issue: body.issue ?? null,
      createdAt: Number(r.created_at),
      delivery,
      nextAttemptAt: num(r.next_attempt_at),
      attempts: byOutbox.get(Number(r.id)) ?? [],
    };
  });
  return { notifications, page: { total: Number(total?.n ?? 0), offset: q.offset, limit: q.limit } };
}
