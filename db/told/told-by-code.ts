import type { CodeTold } from "@/lib/contracts/told";
import type { Executor } from "../store/types";

/**
 * Per code of `codes`: surfaced errors, those decided and those the model recovered from (all
 * retained history, narrowed by tool and release when given), for the Codes table's recovery column.
 * A code never surfaced to the model has no entry.
 */
export async function toldByCode(db: Executor, projectId: string, codes: readonly string[], filter: { tool?: string; release?: string } = {}): Promise<Map<string, CodeTold>> {
  if (codes.length === 0) return new Map();
  const args: (string | number)[] = [projectId, ...codes];
  let narrow = "";
  if (filter.tool !== undefined) {
    narrow += " AND tool = ?";
    args.push(filter.tool);
  }
  if (filter.release !== undefined) {
    narrow += " AND release = ?";
    args.push(filter.release);
  }
  const rows = await db.all<{ code: string; surfaced: number; decided: number; recovered: number }>(
    `SELECT code, sum(errors) AS surfaced,
       sum(CASE WHEN step <> 'pending' THEN errors ELSE 0 END) AS decided,
       sum(CASE WHEN step IN ('recovered', 'replaced') THEN errors ELSE 0 END) AS recovered
     FROM told_step_counts WHERE project_id = ? AND code IN (${codes.map(() => "?").join(", ")})${narrow}
     GROUP BY code`,
    args,
  );
  const out = new Map<string, CodeTold>();
  for (const r of rows) {
    const surfaced = Number(r.surfaced);
    if (surfaced === 0) continue;
    const decided = Number(r.decided);
    const recovered = Number(r.recovered);
    out.set(r.code, { surfaced, decided, recovered, selfCorrection: decided > 0 ? recovered / decided : null });
  }
  return out;
}
