import type { RuleEdit } from "@/lib/drift/rule-caused";
import type { Executor } from "../client";
import { listConfigEdits } from "./config-events";

interface VersionRow {
  ruleId: string;
  version: number;
  body: string | null;
  action: string;
  at: number;
  name: string | null;
}

const codeOf = (body: string | null): string | null => {
  if (body === null) return null;
  const set = (JSON.parse(body) as { set?: { code?: unknown } }).set;
  return typeof set?.code === "string" ? set.code : null;
};

/**
 * Every version of a project's classification rules as a change: when, what it did, and the code the
 * rule set before and after it; then its reorders and pack switches (config-events.ts) with the codes
 * they moved. Optionally only the changes that concern one code. Oldest first.
 */
export async function listRuleEdits(db: Executor, projectId: string, code?: string): Promise<RuleEdit[]> {
  const rows = await db.all<VersionRow>(
    `SELECT v.rule_id AS "ruleId", v.version, v.body, v.action, v.at, r.name
     FROM classification_rule_versions v LEFT JOIN classification_rules r ON r.project_id = v.project_id AND r.id = v.rule_id
     WHERE v.project_id = ? ORDER BY v.rule_id, v.version`,
    [projectId],
  );
  const out: RuleEdit[] = [];
  let previous: { ruleId: string; code: string | null } | null = null;
  for (const r of rows) {
    const before = previous?.ruleId === r.ruleId ? previous.code : null;
    const after = codeOf(r.body);
    previous = { ruleId: r.ruleId, code: after };
    const codes = [...new Set([before, after].filter((c): c is string => c !== null))];
    if (code !== undefined && !codes.includes(code)) continue;
    const action = r.action === "created" || r.action === "deleted" ? r.action : "updated";
    out.push({ ruleId: r.ruleId, name: r.name ?? r.ruleId, version: Number(r.version), action, at: Number(r.at), codes });
  }
  out.push(...(await listConfigEdits(db, projectId, code)));
  // At one instant: rule versions by rule and version, then reorders and switches (in revision order, kept by the stable sort).
  const rank = (e: RuleEdit) => e.ruleId ?? "\uffff";
  return out.sort((a, b) => a.at - b.at || (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : (a.version ?? 0) - (b.version ?? 0)));
}
