import type { Executor } from "../client";
import { HOUR_MS, periodOf } from "../rollups/periods";
import { jsonRows } from "../store/dialect-sql";
import type { SloCallGroup } from "@/lib/slo/burn";
import { scopeParams, sloCallBuckets, sloRawCallWindows, type SloScope } from "./slo-counts";

// SLO counts over long windows read `call_endings_hourly` (kept at ingest, exact) for the window's
// whole hours, and raw spans only for the partial hours at its edges: at most two hours of spans
// whatever the window, so a 28-day window costs what an hour does. The rollup holds the same counts
// a raw scan of those hours gives (db/ingest/call-endings.ts), so the sums are the raw reads' to the call.

/** The first hour boundary at or after `t`. */
const hourAtOrAfter = (t: number) => (periodOf(t) === t ? t : periodOf(t) + HOUR_MS);

const groupKey = (g: SloCallGroup) => (g.failed ? 4 : 0) + (g.declined ? 2 : 0) + (g.recovered ? 1 : 0);

/** Groups of one window from several parts, summed per kind of ending, empty kinds left out, in the raw reads' order. */
function mergeGroups(parts: readonly (readonly SloCallGroup[])[]): SloCallGroup[] {
  const byKind = new Map<number, SloCallGroup>();
  for (const part of parts) {
    for (const g of part) {
      const k = groupKey(g);
      const current = byKind.get(k);
      byKind.set(k, current ? { ...current, calls: current.calls + g.calls } : { ...g });
    }
  }
  return [...byKind.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g).filter((g) => g.calls !== 0);
}

const toGroup = (r: { failed: number | string; declined: number | string; recovered: number | string }, calls: number): SloCallGroup => ({
  failed: Number(r.failed) === 1, declined: Number(r.declined) === 1, recovered: Number(r.recovered) === 1, calls,
});

const ROLLUP_SCOPE = (db: Executor) =>
  `FROM call_endings_hourly WHERE project_id = @project AND hour >= @from AND hour < @to AND tool IN (SELECT value ->> 0 FROM ${jsonRows(db.dialect, "@tools")})`;

/** The scope's ended calls per hour (aligned to the epoch) and kind of ending: whole hours from the rollup, the edges from raw spans. */
export async function sloCallHours(db: Executor, q: SloScope): Promise<{ at: number; groups: SloCallGroup[] }[]> {
  if (q.tools.length === 0) return [];
  const first = hourAtOrAfter(q.from);
  const last = periodOf(q.to);
  if (first >= last) return sloCallBuckets(db, { ...q, bucketMs: HOUR_MS });
  const head = first > q.from ? await sloCallBuckets(db, { ...q, to: first, bucketMs: HOUR_MS }) : [];
  const tail = q.to > last ? await sloCallBuckets(db, { ...q, from: last, bucketMs: HOUR_MS }) : [];
  const rows = await db.all<{ hour: number | string; failed: number | string; declined: number | string; recovered: number | string; calls: number | string }>(
    `SELECT hour, failed, declined, recovered, SUM(calls) AS calls ${ROLLUP_SCOPE(db)}
     GROUP BY hour, failed, declined, recovered HAVING SUM(calls) <> 0 ORDER BY hour, failed, declined, recovered`,
    scopeParams({ ...q, from: first, to: last }),
  );
  const middle = new Map<number, SloCallGroup[]>();
  for (const r of rows) {
    const at = Number(r.hour);
    (middle.get(at) ?? middle.set(at, []).get(at)!).push(toGroup(r, Number(r.calls)));
  }
  return [...head, ...[...middle].map(([at, groups]) => ({ at, groups })), ...tail];
}

/**
 * The scope's ended calls in the windows ending at `to` and starting at each of `starts` (all within
 * the scope), by kind of ending. Each window is its partial first hour (raw), its whole hours (the
 * rollup, one read for all windows) and the partial hour before `to` (raw, one read for all windows).
 */
export async function sloCallWindows<K extends string>(db: Executor, q: SloScope, starts: Record<K, number>): Promise<Record<K, SloCallGroup[]>> {
  const keys = Object.keys(starts) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as SloCallGroup[]])) as Record<K, SloCallGroup[]>;
  if (q.tools.length === 0) return out;
  const last = periodOf(q.to);
  // The last partial hour, or all of a window that starts within it.
  const tailStarts = Object.fromEntries(keys.map((k) => [k, Math.max(starts[k], last)])) as Record<K, number>;
  const tail = await sloRawCallWindows(db, { ...q, from: Math.max(q.from, last) }, tailStarts);
  const before = keys.filter((k) => starts[k] < last);
  // Each window's partial first hour, read once per distinct start.
  const heads = new Map<number, SloCallGroup[]>();
  for (const k of before) {
    const from = starts[k];
    const first = hourAtOrAfter(from);
    if (first > from && !heads.has(from)) heads.set(from, (await sloRawCallWindows(db, { ...q, from, to: first }, { head: from })).head);
  }
  const middle = await rollupWindows(db, q, last, Object.fromEntries(before.map((k) => [k, hourAtOrAfter(starts[k])])) as Record<K, number>);
  for (const k of keys) out[k] = mergeGroups([tail[k], heads.get(starts[k]) ?? [], middle[k] ?? []]);
  return out;
}

/** The rollup's calls in the whole hours from each of `firsts` (hour boundaries) to `last`, by kind of ending. */
async function rollupWindows<K extends string>(db: Executor, q: SloScope, last: number, firsts: Partial<Record<K, number>>): Promise<Partial<Record<K, SloCallGroup[]>>> {
  const keys = (Object.keys(firsts) as K[]).filter((k) => firsts[k]! < last);
  if (keys.length === 0) return {};
  const sums = keys.map((_, i) => `SUM(CASE WHEN hour >= @first${i} THEN calls ELSE 0 END) AS w${i}`).join(", ");
  const rows = await db.all<Record<string, number | string>>(
    `SELECT failed, declined, recovered, ${sums} ${ROLLUP_SCOPE(db)} GROUP BY failed, declined, recovered ORDER BY failed, declined, recovered`,
    { ...scopeParams({ ...q, from: Math.min(...keys.map((k) => firsts[k]!)), to: last }), ...Object.fromEntries(keys.map((k, i) => [`first${i}`, firsts[k]])) },
  );
  const out: Partial<Record<K, SloCallGroup[]>> = {};
  for (const [i, k] of keys.entries()) {
    out[k] = rows.map((r) => toGroup({ failed: r.failed!, declined: r.declined!, recovered: r.recovered! }, Number(r[`w${i}`] ?? 0))).filter((g) => g.calls !== 0);
  }
  return out;
}
