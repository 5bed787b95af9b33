/**
 * Interleaved A/B of the dashboard's read queries on two databases (SQLite files or PostgreSQL URLs)
 * holding the same data under two schemas (e.g. the `bench:read` database of main, and of a branch
 * that changes the storage): one process, each round times every query on A then B, the order swapped every round, so both sides see
 * the same machine load. Opens both without migrating. Prints p50/p95 per query and B/A at the median.
 *
 *   npx tsx bench/read-ab.ts A B [ROUNDS=15] [QUERY-NAME-PREFIX]     # A, B: SQLite files or postgres:// URLs
 */
import { performance } from "node:perf_hooks";
import { isPostgresUrl } from "@/db/client";
import { openPgStore } from "@/db/store/pg-store";
import { openSqliteStore } from "@/db/store/sqlite-store";
import { listRuns } from "@/db/queries/list-runs";
import { getRunTimeline } from "@/db/queries/get-run-timeline";
import { RUN_PAGE_ATTEMPTS } from "@/lib/contracts/runs";
import { getToolDetail } from "@/db/queries/get-tool-detail";
import { getOverview } from "@/db/queries/get-overview";
import { listTools } from "@/db/queries/list-tools";
import { listCodes } from "@/db/queries/list-codes";
import { listRunsQuerySchema } from "@/lib/contracts/runs";
import { resolveWindow } from "@/lib/contracts/filters";
import type { Store } from "@/db/client";
const [a, b, roundsArg] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: npx tsx bench/read-ab.ts A B [ROUNDS] [QUERY-NAME-PREFIX]");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 15);
const open = async (at: string): Promise<Store> => (isPostgresUrl(at) ? openPgStore(at, { migrate: false }) : openSqliteStore(at, { migrate: false }));
const stores: Store[] = [await open(a), await open(b)];
const window = resolveWindow({ range: "7d" }, Date.now());
const base = { projectId: "default", window, filters: {} };
const weekAgo = Date.now() - 7 * 86_400_000;
const q = (o: Record<string, string>) => listRunsQuerySchema.parse(o);
const all: [string, (s: Store) => Promise<unknown>][] = [
  ["runs", (s) => listRuns(s, q({}))],
  ["runs hasErrors", (s) => listRuns(s, q({ from: String(weekAgo), hasErrors: "1" }))],
  ["runs tool", (s) => listRuns(s, q({ tool: "tool_00_search" }))],
  ["runs code", (s) => listRuns(s, q({ code: "code_00_failed" }))],
  ["run timeline run-1", (s) => getRunTimeline(s, "default", "run-1", { limit: RUN_PAGE_ATTEMPTS })],
  ["tool detail", (s) => getToolDetail(s, { ...base, tool: "tool_00_search" })],
  ["overview", (s) => getOverview(s, base)],
  ["tools", (s) => listTools(s, { ...base, sort: "failures", dir: "desc", page: { offset: 0, limit: 100 } })],
  ["codes", (s) => listCodes(s, { ...base, sort: "failures", dir: "desc", page: { offset: 0, limit: 100 } })],
];
const only = process.argv[5];
const cases = only ? all.filter(([n]) => n.startsWith(only)) : all;
const times = cases.map(() => [[], []] as number[][]);
for (const [, fn] of cases) for (const s of stores) await fn(s); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const [i, [, fn]] of cases.entries()) {
    for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = performance.now();
      await fn(stores[k]!);
      times[i]![k]!.push(performance.now() - t0);
    }
  }
}
const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(`${"query".padEnd(22)} ${"A p50".padStart(8)} ${"B p50".padStart(8)} ${"A p95".padStart(8)} ${"B p95".padStart(8)}  B/A p50`);
for (const [i, [name]] of cases.entries()) {
  const [ta, tb] = times[i]! as [number[], number[]];
  console.log(`${name.padEnd(22)} ${pct(ta, 0.5).toFixed(1).padStart(8)} ${pct(tb, 0.5).toFixed(1).padStart(8)} ${pct(ta, 0.95).toFixed(1).padStart(8)} ${pct(tb, 0.95).toFixed(1).padStart(8)}  ${(pct(tb, 0.5) / pct(ta, 0.5)).toFixed(2)}`);
}
for (const s of stores) await s.close();
