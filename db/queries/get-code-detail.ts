import type { CodeDetail } from "@/lib/contracts/codes";
import type { Executor } from "../client";
import { codeRows } from "./list-codes";
import { rollupWhere, SPAN_ROLLUP_DIMS, type CodeCatalogueRow, type DashboardParams, rollupTables, type SpanRollupRow } from "./rollup-filters";

const RETRYABLE: Record<number, "yes" | "no" | "unknown"> = { 1: "yes", 0: "no", [-1]: "unknown" };

type CellRow = Pick<SpanRollupRow, "tool" | "outcome"> & { t: number; attempts: number };
/** One meaning of the code as catalogued; `retryable` is 1, 0 or -1 until mapped to words. */
type MeaningRow = Omit<CodeDetail["meanings"][number], "retryable"> & Pick<CodeCatalogueRow, "retryable">;

/** One code's history: outcomes over time, the tools that emit it, and each meaning it had per release. */
export async function getCodeDetail(db: Executor, p: DashboardParams & { code: string }): Promise<CodeDetail> {
  const t = rollupTables(p.window);
  const w = rollupWhere({ ...p, filters: { ...p.filters, code: p.code } }, SPAN_ROLLUP_DIMS);
  const [cells, meaningRows, summary] = await Promise.all([
    // One scan: the outcome series and the per-tool split both come from (bucket, tool, outcome) cells.
    db.all<CellRow>(
      `SELECT (hour / ?) * ? AS t, tool, outcome, sum(spans) AS attempts FROM ${t.spans}
       WHERE ${w.sql} GROUP BY t, tool, outcome`,
      [p.window.stepMs, p.window.stepMs, ...w.args],
    ),
    // The catalogue is the meaning over all time (not windowed): drift is about releases, not hours.
    // The order names every key column after (project_id, code): total.
    db.all<MeaningRow>(
      `SELECT release, tool, tool_version AS "toolVersion", error_class AS "errorClass", retryable, first_seen AS "firstSeen",
         last_seen AS "lastSeen", spans, errors
       FROM codes WHERE project_id = ? AND code = ? ORDER BY first_seen, release, tool, tool_version, error_class, retryable`,
      [p.projectId, p.code],
    ),
    codeRows(db, p, [p.code]),
  ]);
  const series = new Map<string, CodeDetail["outcomeSeries"][number]>();
  const tools = new Map<string, CodeDetail["byTool"][number]>();
  for (const c of cells) {
    const key = `${c.t}\u0000${c.outcome}`;
    const s = series.get(key) ?? { t: c.t, outcome: c.outcome, attempts: 0 };
    series.set(key, s);
    s.attempts += c.attempts;
    const t = tools.get(c.tool) ?? { tool: c.tool, attempts: 0, failures: 0, declined: 0, refused: 0 };
    tools.set(c.tool, t);
    t.attempts += c.attempts;
    if (c.outcome !== "ok" && c.outcome !== "") t.failures += c.attempts;
    if (c.outcome === "declined") t.declined += c.attempts;
    if (c.outcome === "refused") t.refused += c.attempts;
  }
  const outcomeSeries = [...series.values()].sort((a, b) => a.t - b.t || a.outcome.localeCompare(b.outcome));
  const byTool = [...tools.values()].sort((a, b) => b.failures - a.failures || a.tool.localeCompare(b.tool));
  const meanings = meaningRows.map((m) => ({ ...m, retryable: RETRYABLE[m.retryable] ?? "unknown" }));
  return {
    project: p.projectId,
    window: p.window,
    summary: summary[0] ?? null,
    outcomeSeries,
    byTool,
    meanings,
  };
}
