import { CODE_ROW_NAMES_MAX, type CodeRow, type CodesAnswer, type CodesQuery } from "@/lib/contracts/codes";
import { pageOf, type PageQuery } from "@/lib/contracts/paging";
import type { Executor } from "../client";
import {
  ratio, rollupTables, rollupWhere, sortRows, SPAN_ROLLUP_DIMS, type CodeCatalogueRow, type DashboardParams, type SpanRollupRow,
} from "./rollup-filters";

type Retryable = CodeRow["retryableValues"][number];
const RETRYABLE: Record<number, Retryable> = { 1: "yes", 0: "no", [-1]: "unknown" };

/** The catalogue summed over tool versions. */
type CatalogueRow = Pick<CodeCatalogueRow, "code" | "tool" | "release" | "errorClass" | "retryable" | "firstSeen" | "lastSeen" | "spans" | "errors">;
type OutcomeRow = Pick<SpanRollupRow, "code" | "outcome"> & { attempts: number };

/**
 * Codes seen in the window: meaning (classes, retryability) and sightings from the codes catalogue,
 * attempt counts per outcome from the hourly rollups. `onlyCode` narrows to one code.
 */
export async function codeRows(db: Executor, p: DashboardParams, onlyCode?: string): Promise<CodeRow[]> {
  const t = rollupTables(p.window);
  const f = p.filters;
  const cat = [`project_id = ?`, `last_seen >= ?`, `first_seen < ?`];
  const catArgs: (string | number)[] = [p.projectId, p.window.from, p.window.to];
  const code = onlyCode ?? f.code;
  const narrow = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    cat.push(`${column} = ?`);
    catArgs.push(value);
  };
  narrow("code", code);
  narrow("tool", f.tool);
  narrow("release", f.release);
  narrow("error_class", f.errorClass);
  const w = rollupWhere({ ...p, filters: { ...f, code } }, SPAN_ROLLUP_DIMS);
  const [catalogue, counts] = await Promise.all([
    db.all<CatalogueRow>(
      `SELECT code, tool, release, error_class AS "errorClass", retryable, min(first_seen) AS "firstSeen", max(last_seen) AS "lastSeen",
         sum(spans) AS spans, sum(errors) AS errors
       FROM codes WHERE ${cat.join(" AND ")} GROUP BY code, tool, release, error_class, retryable`,
      catArgs,
    ),
    db.all<OutcomeRow>(`SELECT code, outcome, sum(spans) AS attempts FROM ${t.spans} WHERE ${w.sql} AND code != '' GROUP BY code, outcome`, w.args),
  ]);

  const byCode = new Map<string, { rows: CatalogueRow[]; outcomes: { outcome: string; attempts: number }[] }>();
  for (const r of catalogue) {
    const e = byCode.get(r.code) ?? { rows: [], outcomes: [] };
    e.rows.push(r);
    byCode.set(r.code, e);
  }
  for (const c of counts) byCode.get(c.code)?.outcomes.push({ outcome: c.outcome, attempts: c.attempts });
  // With an outcome, service or environment filter the rollups decide which codes qualify (the catalogue has none).
  const narrowedByRollups = f.outcome !== undefined || f.service !== undefined || f.environment !== undefined;

  const result: CodeRow[] = [];
  for (const [name, e] of byCode) {
    if (narrowedByRollups && e.outcomes.length === 0) continue;
    const classes = [...new Set(e.rows.map((r) => r.errorClass).filter((c) => c !== ""))].sort();
    const retryableValues = (["yes", "no", "unknown"] as const).filter((v) => e.rows.some((r) => RETRYABLE[r.retryable] === v));
    let known = 0;
    let yes = 0;
    for (const r of e.rows) {
      const n = r.spans + r.errors;
      if (r.retryable !== -1) known += n;
      if (r.retryable === 1) yes += n;
    }
    const attempts = e.outcomes.reduce((s, o) => s + o.attempts, 0);
    const tools = [...new Set(e.rows.map((r) => r.tool))].sort();
    const releases = [...new Set(e.rows.map((r) => r.release).filter((r) => r !== ""))].sort();
    result.push({
      code: name,
      errorClasses: classes,
      retryableShare: ratio(yes, known),
      retryableValues,
      conflicting: classes.length > 1 || (retryableValues.includes("yes") && retryableValues.includes("no")),
      attempts,
      failures: e.outcomes.filter((o) => o.outcome !== "ok" && o.outcome !== "").reduce((s, o) => s + o.attempts, 0),
      outcomes: e.outcomes.sort((a, b) => b.attempts - a.attempts || a.outcome.localeCompare(b.outcome)),
      tools: tools.slice(0, CODE_ROW_NAMES_MAX),
      toolCount: tools.length,
      releases: releases.slice(0, CODE_ROW_NAMES_MAX),
      releaseCount: releases.length,
      firstSeen: Math.min(...e.rows.map((r) => r.firstSeen)),
      lastSeen: Math.max(...e.rows.map((r) => r.lastSeen)),
    });
  }
  return result;
}

const SORT_VALUE: Record<CodesQuery["sort"], (r: CodeRow) => number | string | null> = {
  code: (r) => r.code,
  attempts: (r) => r.attempts,
  failures: (r) => r.failures,
  tools: (r) => r.toolCount,
  first_seen: (r) => r.firstSeen,
  last_seen: (r) => r.lastSeen,
  retryable_share: (r) => r.retryableShare,
};

/** One page of the codes table for a window, sorted (nulls last, ties by code), `q` matching the code. */
export async function listCodes(db: Executor, p: DashboardParams & { sort: CodesQuery["sort"]; dir: "asc" | "desc"; page: PageQuery }): Promise<CodesAnswer> {
  const sorted = sortRows(await codeRows(db, p), SORT_VALUE[p.sort], p.dir, (r) => r.code);
  const { rows, page } = pageOf(sorted, (r) => r.code, p.page);
  return { project: p.projectId, window: p.window, codes: rows, page };
}
