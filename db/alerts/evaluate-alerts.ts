import type { Executor, Store } from "../client";
import { conditionsOf, ruleIsQuiet, transitionsOf, type AlertStateRow } from "@/lib/alerts/evaluate";
import { buildNotification, type NotificationDetails } from "@/lib/alerts/notification";
import type { AlertStatus } from "@/lib/contracts/alert-enums";
import { issueId } from "@/lib/triage/issue-batch";
import { openDeclinedIssues } from "../issues/open-declined-issues";
import { alertDetails } from "./alert-details";
import { loadAlertFacts } from "./facts";
import { getAlertRule } from "./rules";

/**
 * Evaluates every rule that is neither muted nor snoozed, of projects that are not archived (an
 * archived project takes no new data, so its rules would only resolve or repeat what they knew).
 * Each rule's state changes and the notifications they cause commit in one transaction, so a
 * notification exists exactly when its state changed (the outbox is delivered afterwards,
 * server/alerts). Answers the notifications written.
 */
export async function evaluateAlerts(store: Store, now: number, publicUrl: string): Promise<number> {
  const ids = await store.all<{ id: number | string }>(
    "SELECT r.id FROM alert_rules r JOIN projects p ON p.id = r.project_id WHERE p.archived_at IS NULL ORDER BY r.id",
  );
  let written = 0;
  for (const { id } of ids) {
    const rule = await getAlertRule(store, Number(id));
    if (!rule || ruleIsQuiet(rule, now)) continue;
    const facts = await loadAlertFacts(store, rule.project, rule.params, rule.createdAt, now);
    const conditions = conditionsOf(rule.params, facts);
    // The messages' details are read before the transaction (no reads of other tables inside it);
    // a change that appears only inside it (a race with another evaluation) gets them there.
    const before = await store.all<AlertStateRow & { fired_at: number | string | null }>("SELECT key, status, fired_at FROM alert_states WHERE rule_id = ?", [rule.id]);
    const firedAt = new Map(before.map((s) => [s.key, s.fired_at === null ? null : Number(s.fired_at)]));
    const details = new Map<string, NotificationDetails>();
    for (const change of transitionsOf(conditions, before)) {
      details.set(`${change.status}:${change.key}`, await alertDetails(store, rule.project, rule.params, facts, change, firedAt.get(change.key) ?? null, now));
    }
    written += await store.transaction(async (tx) => {
      // Read again inside the transaction: an edit in between (new params, a delete) wins.
      const current = await getAlertRule(tx, rule.id);
      if (!current || current.updatedAt !== rule.updatedAt) return 0;
      const states = await tx.all<AlertStateRow>("SELECT key, status FROM alert_states WHERE rule_id = ?", [rule.id]);
      const changes = transitionsOf(conditions, states);
      // A rule firing on a declined code opens its issue (docs/issues.md), before the message names it.
      const firing = changes.filter((c) => c.status === "firing" && c.code !== "");
      const opened = new Set(await openDeclinedIssues(tx, rule.project, firing.map((c) => ({ tool: c.tool, code: c.code, actor: "alert rule", by: `alert rule "${rule.name}" (#${rule.id})` })), now));
      // Their details were read before the issue existed: read again, in the transaction.
      for (const c of firing) if (opened.has(issueId(rule.project, c.tool, c.code))) details.delete(`${c.status}:${c.key}`);
      for (const change of changes) {
        await upsertState(tx, rule.id, change, now);
        const detail = details.get(`${change.status}:${change.key}`) ?? (await alertDetails(tx, rule.project, rule.params, facts, change, firedAt.get(change.key) ?? null, now));
        const body = buildNotification({ ...rule, kind: rule.params.kind }, change, now, publicUrl, detail);
        await tx.run(
          `INSERT INTO alert_outbox (project_id, rule_id, rule_name, receiver_id, key, status, body, created_at, attempts, next_attempt_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
          [rule.project, rule.id, rule.name, rule.receiverId, change.key, change.status, JSON.stringify(body), now, rule.receiverId === null ? null : now],
        );
      }
      return changes.length;
    });
  }
  return written;
}

async function upsertState(
  tx: Executor,
  ruleId: number,
  change: { key: string; tool: string; code: string; status: AlertStatus; value: string },
  now: number,
): Promise<void> {
  if (change.status === "firing") {
    await tx.run(
      `INSERT INTO alert_states (rule_id, key, tool, code, status, value, fired_at, resolved_at) VALUES (?, ?, ?, ?, 'firing', ?, ?, NULL)
       ON CONFLICT (rule_id, key) DO UPDATE SET status = 'firing', value = excluded.value, fired_at = excluded.fired_at, resolved_at = NULL`,
      [ruleId, change.key, change.tool, change.code, change.value, now],
    );
  } else {
    await tx.run("UPDATE alert_states SET status = 'resolved', resolved_at = ? WHERE rule_id = ? AND key = ?", [now, ruleId, change.key]);
  }
}
