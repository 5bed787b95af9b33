import type { Executor } from "../client";
import type { AlertReceiver } from "@/lib/contracts/alerts";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";

interface ReceiverRow {
  id: number;
  project_id: string;
  name: string;
  url: string;
  format: AlertReceiverFormat;
  created_at: number;
}

const COLUMNS = "id, project_id, name, url, format, created_at";

const toReceiver = (r: ReceiverRow): AlertReceiver => ({
  id: Number(r.id),
  project: r.project_id,
  name: r.name,
  url: r.url,
  format: r.format,
  createdAt: Number(r.created_at),
});

/** Receivers without their secrets: a secret is shown once, when the receiver is created. */
export async function listAlertReceivers(db: Executor, project: string): Promise<AlertReceiver[]> {
  return (await db.all<ReceiverRow>(`SELECT ${COLUMNS} FROM alert_receivers WHERE project_id = ? ORDER BY id`, [project])).map(toReceiver);
}

export async function getAlertReceiver(db: Executor, id: number): Promise<(AlertReceiver & { secret: string }) | null> {
  const row = await db.get<ReceiverRow & { secret: string }>(`SELECT ${COLUMNS}, secret FROM alert_receivers WHERE id = ?`, [id]);
  return row ? { ...toReceiver(row), secret: row.secret } : null;
}

export async function createAlertReceiver(
  db: Executor,
  receiver: { project: string; name: string; url: string; format: AlertReceiverFormat; secret: string },
  now: number,
): Promise<AlertReceiver> {
  const row = await db.get<ReceiverRow>(
    `INSERT INTO alert_receivers (project_id, name, url, format, secret, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
    [receiver.project, receiver.name, receiver.url, receiver.format, receiver.secret, now],
  );
  return toReceiver(row!);
}

/** Deletes a receiver; rules that sent to it keep their states and send nowhere until given another. */
export async function deleteAlertReceiver(db: Executor, id: number): Promise<boolean> {
  await db.run("UPDATE alert_rules SET receiver_id = NULL WHERE receiver_id = ?", [id]);
  // Notifications still waiting for it have nowhere to go: they stay in the history as given up.
  await db.run("UPDATE alert_outbox SET next_attempt_at = NULL, gave_up_at = ? WHERE receiver_id = ? AND next_attempt_at IS NOT NULL", [Date.now(), id]);
  return (await db.run("DELETE FROM alert_receivers WHERE id = ?", [id])) > 0;
}

/** Renames a receiver or points it elsewhere (a new URL, routing key or recipients); null when it does not exist. */
export async function updateAlertReceiver(db: Executor, id: number, change: { name?: string; url?: string; secret?: string }): Promise<AlertReceiver | null> {
  const row = await db.get<ReceiverRow & { secret: string }>(`SELECT ${COLUMNS}, secret FROM alert_receivers WHERE id = ?`, [id]);
  if (!row) return null;
  const updated = await db.get<ReceiverRow>(`UPDATE alert_receivers SET name = ?, url = ?, secret = ? WHERE id = ? RETURNING ${COLUMNS}`, [
    change.name ?? row.name,
    change.url ?? row.url,
    change.secret ?? row.secret,
    id,
  ]);
  return updated ? toReceiver(updated) : null;
}
