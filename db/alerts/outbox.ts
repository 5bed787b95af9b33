import type { Executor, Store } from "../client";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";

/** A notification due for an attempt, with where and how to send it. */
export interface DueNotification {
  id: number;
  body: string;
  createdAt: number;
  attempts: number;
  url: string;
  format: AlertReceiverFormat;
  secret: string;
  /** The rule state's key (tool, code, finding): PagerDuty's dedup key derives from it. */
  key: string;
}

/** Notifications whose next attempt is due, oldest first. */
export async function dueNotifications(db: Executor, now: number, limit: number): Promise<DueNotification[]> {
  const rows = await db.all<{ id: number | string; body: string; created_at: number | string; attempts: number | string; url: string; format: AlertReceiverFormat; secret: string; key: string }>(
    `SELECT o.id, o.body, o.created_at, o.attempts, r.url, r.format, r.secret, o.key
     FROM alert_outbox o JOIN alert_receivers r ON r.id = o.receiver_id
     WHERE o.next_attempt_at IS NOT NULL AND o.next_attempt_at <= ?
     ORDER BY o.next_attempt_at, o.id LIMIT ?`,
    [now, limit],
  );
  return rows.map((r) => ({ id: Number(r.id), body: r.body, createdAt: Number(r.created_at), attempts: Number(r.attempts), url: r.url, format: r.format, secret: r.secret, key: r.key }));
}

export interface AttemptRecord {
  at: number;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

/** What follows an attempt: done, another attempt at a time, or no more attempts. */
export type AttemptNext = { kind: "delivered" } | { kind: "retry"; at: number } | { kind: "gave_up" };

/** Records one attempt and what follows it, together. */
export async function recordAttempt(store: Store, outboxId: number, attempt: AttemptRecord, next: AttemptNext): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.run("INSERT INTO alert_attempts (outbox_id, attempted_at, http_status, error, duration_ms) VALUES (?, ?, ?, ?, ?)", [
      outboxId,
      attempt.at,
      attempt.httpStatus,
      attempt.error,
      attempt.durationMs,
    ]);
    await tx.run(
      "UPDATE alert_outbox SET attempts = attempts + 1, next_attempt_at = ?, delivered_at = ?, gave_up_at = ? WHERE id = ?",
      [next.kind === "retry" ? next.at : null, next.kind === "delivered" ? attempt.at : null, next.kind === "gave_up" ? attempt.at : null, outboxId],
    );
  });
}
