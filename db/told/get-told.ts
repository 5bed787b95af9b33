import {
  MIN_TOLD_SAMPLE,
  RECOVERY_STEPS,
  TOLD_SAMPLES_PER_WORDING,
  TOLD_WORDINGS_MAX,
  type ToldAnswer,
  type ToldQuery,
  type ToldRunState,
  type ToldSample,
  type ToldStep,
  type ToldWording,
} from "@/lib/contracts/told";
import { DEFAULT_RANGE, resolveWindow, type TimeWindow } from "@/lib/contracts/filters";
import { orderReleases } from "@/lib/drift/semver";
import { stepCounts, toldRates, type ToldCount } from "@/lib/told/rates";
import type { Executor } from "../store/types";

interface CountRow {
  tool: string;
  code: string;
  release: string;
  shape: string;
  step: ToldStep;
  run_state: ToldRunState;
  calls: number;
  errors: number;
  first_seen: number;
}

interface SampleRow {
  event_id: string;
  run_id: string;
  call_id: string;
  tool: string;
  code: string;
  shape: string;
  step: ToldStep;
  occurred_at: number;
  next_call_id: string | null;
  next_tool: string | null;
  next_outcome: string | null;
  next_code: string | null;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The window a query asks for (its range, or from and to), or null for all retained history. */
function toldWindow(q: ToldQuery, now: number): TimeWindow | null {
  const absolute = q.from !== undefined && q.to !== undefined;
  if (q.range === undefined && !absolute) return null;
  return resolveWindow({ range: q.range ?? DEFAULT_RANGE, from: q.from, to: q.to }, now);
}

function filterSql(q: ToldQuery, window: TimeWindow | null, alias = ""): { sql: string; params: Record<string, string | number> } {
  const params: Record<string, string | number> = { project: q.project };
  let sql = `${alias}project_id = @project`;
  if (window) {
    sql += ` AND ${alias}occurred_at >= @from AND ${alias}occurred_at < @to`;
    params.from = window.from;
    params.to = window.to;
  }
  for (const key of ["code", "tool", "release"] as const) {
    const value = q[key];
    if (value === undefined) continue;
    sql += ` AND ${alias}${key} = @${key}`;
    params[key] = value;
  }
  return { sql, params };
}

/** Groups counts by a key, keeping each group's rows. */
function groupBy<K>(rows: readonly CountRow[], key: (r: CountRow) => K): Map<K, CountRow[]> {
  const out = new Map<K, CountRow[]>();
  for (const r of rows) {
    const k = key(r);
    (out.get(k) ?? out.set(k, []).get(k)!).push(r);
  }
  return out;
}

const asCounts = (rows: readonly CountRow[]): ToldCount[] => rows.map((r) => ({ step: r.step, runState: r.run_state, calls: r.calls, errors: r.errors }));

/**
 * Wordings best recovered from first: those with at least MIN_TOLD_SAMPLE decided errors by
 * self-correction rate, then by sample size; the rest after them by sample size (too few to rank).
 */
function rankWordings(wordings: Omit<ToldWording, "samples">[]): Omit<ToldWording, "samples">[] {
  const ranked = (w: Omit<ToldWording, "samples">) => w.rates.decided >= MIN_TOLD_SAMPLE;
  return wordings.sort(
    (a, b) =>
      Number(ranked(b)) - Number(ranked(a)) ||
      (ranked(a) ? (b.rates.selfCorrection ?? 0) - (a.rates.selfCorrection ?? 0) : 0) ||
      b.rates.decided - a.rates.decided ||
      b.rates.surfaced - a.rates.surfaced ||
      byText(a.shape, b.shape),
  );
}

/**
 * A few example runs per wording, newest first: the latest error the model recovered from, the
 * latest it did not, then the next latest of either — so a wording shows both outcomes when it has
 * both. Each with the exact told text and the call that decided its step.
 */
async function samplesOf(db: Executor, q: ToldQuery, window: TimeWindow | null, shapes: readonly string[]): Promise<Map<string, ToldSample[]>> {
  const out = new Map<string, ToldSample[]>();
  if (shapes.length === 0) return out;
  const f = filterSql(q, window, "t.");
  const params: Record<string, string | number> = { ...f.params, per: TOLD_SAMPLES_PER_WORDING - 1 };
  const inList = shapes.map((s, i) => {
    params[`s${i}`] = s;
    return `@s${i}`;
  });
  const rows = await db.all<SampleRow & { n: number }>(
    `SELECT * FROM (
       SELECT t.event_id, t.run_id, t.call_id, t.tool, t.code, t.shape, t.step, t.occurred_at, t.next_call_id, t.next_tool, t.next_outcome, t.next_code,
         row_number() OVER (
           PARTITION BY t.shape, CASE WHEN t.step IN ('recovered', 'replaced') THEN 1 ELSE 0 END ORDER BY t.occurred_at DESC, t.event_id
         ) AS n
       FROM told_steps t WHERE ${f.sql} AND t.step <> 'pending' AND t.shape IN (${inList.join(", ")})
     ) ranked WHERE n <= @per`,
    params,
  );
  const told = new Map<string, string | null>();
  if (rows.length > 0) {
    const ids: Record<string, string> = { project: q.project };
    const names = rows.map((r, i) => {
      ids[`e${i}`] = r.event_id;
      return `@e${i}`;
    });
    const texts = await db.all<{ event_id: string; told: string | null }>(`SELECT event_id, told FROM tool_errors WHERE project_id = @project AND event_id IN (${names.join(", ")})`, ids);
    for (const t of texts) told.set(t.event_id, t.told);
  }
  const byShape = new Map<string, (SampleRow & { n: number })[]>();
  for (const r of rows) (byShape.get(r.shape) ?? byShape.set(r.shape, []).get(r.shape)!).push(r);
  for (const [shape, list] of byShape) {
    // Rank 1 of each side first (recovered, then not), then the rest newest first.
    const ordered = [...list].sort(
      (a, b) =>
        Number(a.n) - Number(b.n) ||
        Number(RECOVERY_STEPS.includes(b.step)) - Number(RECOVERY_STEPS.includes(a.step)) ||
        b.occurred_at - a.occurred_at ||
        byText(a.event_id, b.event_id),
    );
    out.set(
      shape,
      ordered.slice(0, TOLD_SAMPLES_PER_WORDING).map((r) => ({
        runId: r.run_id,
        callId: r.call_id,
        tool: r.tool,
        code: r.code,
        told: told.get(r.event_id) ?? null,
        occurredAt: Number(r.occurred_at),
        step: r.step,
        next: r.next_call_id === null || r.next_tool === null ? null : { callId: r.next_call_id, tool: r.next_tool, outcome: r.next_outcome, code: r.next_code },
      })),
    );
  }
  return out;
}

/**
 * What models did after being told errors (docs/after-told.md) for a project, narrowed by code,
 * tool and release: next-step shares and rates overall, per release (in version order), per
 * (code, tool), and per wording (told-text shape) ranked by recovery with example runs. All
 * retained history is read from the ingest-maintained counts; a time window (the page's range)
 * counts the errors told in it from the per-error steps instead.
 */
export async function getTold(db: Executor, q: ToldQuery, now: number): Promise<ToldAnswer> {
  const window = toldWindow(q, now);
  const f = filterSql(q, window);
  const sql = window
    ? `SELECT tool, code, release, shape, step, run_state, SUM(calls) AS calls, COUNT(*) AS errors, MIN(occurred_at) AS first_seen
       FROM told_steps WHERE ${f.sql} GROUP BY tool, code, release, shape, step, run_state`
    : `SELECT tool, code, release, shape, step, run_state, calls, errors, first_seen FROM told_step_counts WHERE ${f.sql} AND errors > 0`;
  const rows = (await db.all<CountRow>(sql, f.params)).map((r) => ({ ...r, calls: Number(r.calls), errors: Number(r.errors), first_seen: Number(r.first_seen) }));
  const releases = orderReleases(
    [...groupBy(rows, (r) => r.release)].map(([release, list]) => ({
      release,
      firstSeen: Math.min(...list.map((r) => r.first_seen)),
      steps: stepCounts(asCounts(list)),
      rates: toldRates(asCounts(list)),
    })),
  );
  const wordings = rankWordings(
    [...groupBy(rows, (r) => r.shape)].map(([shape, list]) => ({
      shape,
      codes: [...new Set(list.map((r) => r.code))].sort(byText),
      steps: stepCounts(asCounts(list)),
      rates: toldRates(asCounts(list)),
    })),
  );
  const shown = wordings.slice(0, TOLD_WORDINGS_MAX);
  const samples = await samplesOf(db, q, window, shown.map((w) => w.shape));
  const groups = [...groupBy(rows, (r) => `${r.code}\u0000${r.tool}`).values()]
    .map((list) => ({ code: list[0]!.code, tool: list[0]!.tool, steps: stepCounts(asCounts(list)), rates: toldRates(asCounts(list)) }))
    .sort((a, b) => b.rates.surfaced - a.rates.surfaced || byText(a.code, b.code) || byText(a.tool, b.tool));
  return {
    project: q.project,
    filter: { code: q.code ?? null, tool: q.tool ?? null, release: q.release ?? null },
    minSample: MIN_TOLD_SAMPLE,
    steps: stepCounts(asCounts(rows)),
    rates: toldRates(asCounts(rows)),
    releases: releases.items,
    releaseOrder: releases.order,
    wordings: shown.map((w) => ({ ...w, samples: samples.get(w.shape) ?? [] })),
    wordingCount: wordings.length,
    groups,
    window,
  };
}
