import type { IssueDetail } from "@/lib/contracts/issues";
import type { Executor } from "../client";

const SHOWN = 10;

/**
 * The latest notifications that named an issue (their body carries `"issue":{"id":…}`, written by
 * the evaluator), newest first. Issue ids are base-36 digits, so the pattern has no LIKE wildcard.
 */
export async function listIssueAlerts(db: Executor, project: string, issueId: string): Promise<IssueDetail["alerts"]> {
  const rows = await db.all<{ id: number | string; rule_name: string; status: "firing" | "resolved"; created_at: number | string; body: string }>(
    `SELECT id, rule_name, status, created_at, body FROM alert_outbox WHERE project_id = ? AND body LIKE ? ORDER BY id DESC LIMIT ${SHOWN}`,
    [project, `%"issue":{"id":${JSON.stringify(issueId)}%`],
  );
  return rows.map((r) => ({ id: Number(r.id), ruleName: r.rule_name, status: r.status, at: Number(r.created_at), value: String((JSON.parse(r.body) as { value?: unknown }).value ?? "") }));
}
