import { codeSourceOf } from "@/lib/classify/code-source";
import type { CodeSource } from "@/lib/contracts/classification";
import type { CodeSourceCounts } from "@/lib/contracts/conformance";
import type { Executor } from "../client";

/**
 * The spans of a run whose code a rule set, by span id, with the rule's id, version and name (a
 * deleted rule keeps its row, so it still has one). A coded span not listed kept the emitter's code.
 */
export async function ruleCodedSpansOfRun(db: Executor, projectId: string, runId: string): Promise<Record<string, CodeSource>> {
  const rows = await db.all<{ spanId: string; ruleId: string; ruleVersion: number | null; name: string | null }>(
    `SELECT f.span_id AS "spanId", f.rule_id AS "ruleId", f.rule_version AS "ruleVersion", r.name
     FROM failure_facts f LEFT JOIN classification_rules r ON r.project_id = f.project_id AND r.id = f.rule_id
     WHERE f.project_id = ? AND f.run_id = ? AND f.rule_id IS NOT NULL ORDER BY f.span_id`,
    [projectId, runId],
  );
  const out: Record<string, CodeSource> = {};
  for (const r of rows) out[r.spanId] = codeSourceOf({ code: "", ruleId: r.ruleId, ruleVersion: r.ruleVersion === null ? null : Number(r.ruleVersion), ruleName: r.name });
  return out;
}

/**
 * Per input format and service, the stored failures (within raw retention) by where their code came
 * from: counted from the spans and their classification facts as they are now, so a re-classification
 * shows at once.
 */
export async function codeSourceCounts(db: Executor, projectId: string): Promise<CodeSourceCounts[]> {
  const rows = await db.all<{ source: string; service: string | null; failures: number; emitter: number; rules: number; builtin: number; unclassified: number }>(
    `SELECT em.source, em.service, count(*) AS failures,
       sum(CASE WHEN f.rule_id IS NULL AND s.code IS NOT NULL THEN 1 ELSE 0 END) AS emitter,
       sum(CASE WHEN f.rule_id IS NOT NULL AND f.rule_id NOT LIKE 'builtin.%' THEN 1 ELSE 0 END) AS rules,
       sum(CASE WHEN f.rule_id LIKE 'builtin.%' THEN 1 ELSE 0 END) AS builtin,
       sum(CASE WHEN s.code IS NULL THEN 1 ELSE 0 END) AS unclassified
     FROM failure_facts f JOIN tool_call_spans s ON s.project_id = f.project_id AND s.span_id = f.span_id AND s.started_at = f.started_at
     CROSS JOIN span_emitters em
     WHERE f.project_id = ? AND em.id = s.emitter_id
     GROUP BY em.source, em.service`,
    [projectId],
  );
  // Ordered here: the engines place a null service differently.
  const key = (r: { source: string; service: string | null }) => `${r.source}\u0000${r.service === null ? "" : `\u0001${r.service}`}`;
  rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return rows.map((r) => ({
    source: r.source, service: r.service, failures: Number(r.failures), emitter: Number(r.emitter), rules: Number(r.rules), builtin: Number(r.builtin), unclassified: Number(r.unclassified),
  }));
}
