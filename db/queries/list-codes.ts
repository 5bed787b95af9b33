import { CODE_ROW_NAMES_MAX, type CodeRow, type CodesAnswer, type CodesQuery } from "@/lib/contracts/codes";
import { pageOf, type PageQuery } from "@/lib/contracts/paging";
import type { Executor } from "../client";
import { toldByCode } from "../told/told-by-code";
import {
  ratio, rollupTables, rollupWhere, sortRows, SPAN_ROLLUP_DIMS, type CodeCatalogueRow, type DashboardParams, type SpanRollupRow,
} from "./rollup-filters";

type Retryable = CodeRow["retryableValues"][number];
const RETRYABLE: Record<number, Retryable> = { 1: "yes", 0: "no", [-1]: "unknown" };

/** The catalogue summed over tool versions. */
type CatalogueRow = Pick<CodeCatalogueRow, "code" | "tool" | "release" | "errorClass" | "retryable" | "firstSeen" | "lastSeen" | "spans" | "errors">;
type OutcomeRow = Pick<SpanRollupRow, "code" | "outcome"> & { attempts: number };

/** The catalogue's filter for a window: sightings that overlap it, narrowed by the filters it keys on. */
function catalogueWhere(p: DashboardParams, code: string | undefined): { sql: string; args: (string | number)[] } {
  const f = p.filters;
  const parts = [`project_id = ?`, `last_seen >= ?`, `first_seen < ?`];
  const args: (string | number)[] = [p.projectId, p.window.from, p.window.to];
  const narrow = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    parts.push(`${column} = ?`);
    args.push(value);
  };
  narrow("code", code);
  narrow("tool", f.tool);
  narrow("release", f.release);
  narrow("error_class", f.errorClass);
  return { sql: parts.join(" AND "), args };
}

/** With an outcome, service or environment filter the rollups decide which codes qualify (the catalogue has none). */
const narrowedByRollups = (f: DashboardParams["filters"]) => f.outcome !== undefined || f.service !== undefined || f.environment !== undefined;

/** ` AND code IN (?, …)` for `codes`, adding them to `args`. */
function codeIn(codes: readonly string[], args: (string | number)[]): string {
  args.push(...codes);
  return ` AND code IN (${codes.map(() => "?").join(", ")})`;
}

/**
 * Codes seen in the window: meaning (classes, retryability) and sightings from the codes catalogue,
 * attempt counts per outcome from the hourly rollups. `only` narrows to those codes (one page, or the
 * one code of a detail page).
 */
export async function codeRows(db: Executor, p: DashboardParams, only?: readonly string[]): Promise<CodeRow[]> {
  const t = rollupTables(p.window);
  const f = p.filters;
  const code = only?.length === 1 ? only[0] : f.code;
  const cat = catalogueWhere(p, code);
  const w = rollupWhere({ ...p, filters: { ...f, code } }, SPAN_ROLLUP_DIMS);
  const inCat = only && only.length > 1 ? codeIn(only, cat.args) : "";
  const inRollups = only && only.length > 1 ? codeIn(only, w.args) : "";
  const [catalogue, counts, told] = await Promise.all([
    db.all<CatalogueRow>(
      `SELECT code, tool, release, error_class AS "errorClass", retryable, min(first_seen) AS "firstSeen", max(last_seen) AS "lastSeen",
         sum(spans) AS spans, sum(errors) AS errors
       FROM codes WHERE ${cat.sql}${inCat} GROUP BY code, tool, release, error_class, retryable`,
      cat.args,
    ),
    db.all<OutcomeRow>(`SELECT code, outcome, sum(spans) AS attempts FROM ${t.spans} WHERE ${w.sql} AND code != ''${inRollups} GROUP BY code, outcome`, w.args),
    only ? toldByCode(db, p.projectId, only, { tool: f.tool, release: f.release }) : Promise.resolve(undefined),
  ]);
  const toldOf = told ?? (await toldByCode(db, p.projectId, [...new Set(catalogue.map((r) => r.code))], { tool: f.tool, release: f.release }));

  const byCode = new Map<string, { rows: CatalogueRow[]; outcomes: { outcome: string; attempts: number }[] }>();
  for (const r of catalogue) {
    const e = byCode.get(r.code) ?? { rows: [], outcomes: [] };
    e.rows.push(r);
    byCode.set(r.code, e);
  }
  for (const c of counts) byCode.get(c.code)?.outcomes.push({ outcome: c.outcome, attempts: c.attempts });
  const narrowed = narrowedByRollups(f);

  const result: CodeRow[] = [];
  for (const [name, e] of byCode) {
    if (narrowed && e.outcomes.length === 0) continue;
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
      told: toldOf.get(name) ?? null,
    });
  }
  return result;
}

/** Per code, the value the table is sorted on: the order is decided on these alone. */
interface SortKey {
  code: string;
  v: number | string | null;
}

/** The catalogue's expression per sort (codes grouped alone); attempts and failures come from the rollups. */
const CATALOGUE_SORT: Partial<Record<CodesQuery["sort"], string>> = {
  tools: "count(DISTINCT tool)",
  first_seen: "min(first_seen)",
  last_seen: "max(last_seen)",
  retryable_share:
    "CAST(sum(CASE WHEN retryable = 1 THEN spans + errors ELSE 0 END) AS DOUBLE PRECISION) / NULLIF(sum(CASE WHEN retryable <> -1 THEN spans + errors ELSE 0 END), 0)",
};

/**
 * Every code of the window with the value it sorts on, one row per code: the catalogue grouped by
 * code alone (in its key order), the rollups only when the order or the filters need them. The
 * page's full rows are built afterwards for its codes only: 100k codes cost one narrow pass here,
 * not 100k rows of tool and release lists.
 */
async function codeSortKeys(db: Executor, p: DashboardParams, sort: CodesQuery["sort"]): Promise<SortKey[]> {
  const cat = catalogueWhere(p, p.filters.code);
  const fromRollups = sort === "attempts" || sort === "failures";
  const narrowed = narrowedByRollups(p.filters);
  const w = rollupWhere(p, SPAN_ROLLUP_DIMS);
  const [keys, counts] = await Promise.all([
    db.all<SortKey>(`SELECT code, ${CATALOGUE_SORT[sort] ?? "NULL"} AS v FROM codes WHERE ${cat.sql} GROUP BY code`, cat.args),
    fromRollups || narrowed
      ? db.all<SortKey>(
          `SELECT code, ${sort === "attempts" ? "sum(spans)" : "sum(CASE WHEN outcome NOT IN ('ok', '') THEN spans ELSE 0 END)"} AS v
           FROM ${rollupTables(p.window).spans} WHERE ${w.sql} AND code != '' GROUP BY code`,
          w.args,
        )
      : Promise.resolve([]),
  ]);
  const counted = new Map(counts.map((c) => [c.code, Number(c.v)]));
  const rows: SortKey[] = [];
  for (const k of keys) {
    const n = counted.get(k.code);
    if (narrowed && n === undefined) continue;
    rows.push(sort === "code" ? { code: k.code, v: k.code } : fromRollups ? { code: k.code, v: n ?? 0 } : { code: k.code, v: k.v === null ? null : Number(k.v) });
  }
  return rows;
}

/** One page of the codes table for a window, sorted (nulls last, ties by code), `q` matching the code. */
export async function listCodes(db: Executor, p: DashboardParams & { sort: CodesQuery["sort"]; dir: "asc" | "desc"; page: PageQuery }): Promise<CodesAnswer> {
  const sorted = sortRows(await codeSortKeys(db, p, p.sort), (r) => r.v, p.dir, (r) => r.code);
  const { rows: keys, page } = pageOf(sorted, (r) => r.code, p.page);
  const full = keys.length > 0 ? await codeRows(db, p, keys.map((k) => k.code)) : [];
  const byCode = new Map(full.map((r) => [r.code, r]));
  return { project: p.projectId, window: p.window, codes: keys.flatMap((k) => byCode.get(k.code) ?? []), page };
}
