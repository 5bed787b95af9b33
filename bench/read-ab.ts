/**
 * Interleaved A/B of the dashboard's read queries: one process, each round times every query on A
 * then B, the order swapped every round, so both sides see the same machine load. Prints p50/p95 per
 * query and B/A at the median.
 *
 * Two databases holding the same data under two schemas (e.g. the `bench:read` database of main, and
 * of a branch that changes the storage), with this checkout's queries on both:
 *
 *   npx tsx bench/read-ab.ts A B [ROUNDS=15] [QUERY-NAME-PREFIX]     # A, B: SQLite files or postgres:// URLs
 *
 * Two versions of the query code on one database: `--a-code DIR` runs side A with the query modules
 * of another checkout (e.g. a worktree of main), side B with this one's (A and B may be the same URL):
 *
 *   npx tsx bench/read-ab.ts --a-code /path/to/main-worktree URL URL [ROUNDS] [PREFIX]
 *
 * `--cold` (PostgreSQL) times each query on a new connection (one, opened and used for a `SELECT 1`
 * before the clock starts): the first reads of a backend load the catalog entries of every table and
 * partition they plan over, which a pool pays again whenever it opens a connection.
 *
 * Both databases are opened without migrating.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { isPostgresUrl } from "@/db/client";
import { openPgStore } from "@/db/store/pg-store";
import { openSqliteStore } from "@/db/store/sqlite-store";
import { RUN_PAGE_ATTEMPTS, listRunsQuerySchema } from "@/lib/contracts/runs";
import { resolveWindow } from "@/lib/contracts/filters";
import type { Store } from "@/db/client";
import type { DashboardParams } from "@/db/queries/rollup-filters";
import type { ListRunsQuery } from "@/lib/contracts/runs";

const argv = process.argv.slice(2);
const codeAt = argv.indexOf("--a-code");
const aCode = codeAt >= 0 ? argv.splice(codeAt, 2)[1] : undefined;
const coldAt = argv.indexOf("--cold");
const cold = coldAt >= 0 && argv.splice(coldAt, 1).length > 0;
const [a, b, roundsArg, only] = argv;
if (!a || !b) {
  console.error("usage: npx tsx bench/read-ab.ts [--a-code DIR] [--cold] A B [ROUNDS] [QUERY-NAME-PREFIX]");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 15);

/** The read functions timed here, as one checkout has them. */
interface Queries {
  listRuns: (s: Store, q: ListRunsQuery) => Promise<unknown>;
  getRunTimeline: (s: Store, project: string, run: string, page: { limit: number }) => Promise<unknown>;
  getToolDetail: (s: Store, p: DashboardParams & { tool: string }) => Promise<unknown>;
  getOverview: (s: Store, p: DashboardParams) => Promise<unknown>;
  listTools: (s: Store, p: DashboardParams & { sort: "failures"; dir: "desc"; page: { offset: number; limit: number } }) => Promise<unknown>;
  listCodes: (s: Store, p: DashboardParams & { sort: "failures"; dir: "desc"; page: { offset: number; limit: number } }) => Promise<unknown>;
  getCodeReleaseHistory: (s: Store, p: { project: string; code: string }) => Promise<unknown>;
  getDriftFreshness: (s: Store, project: string) => Promise<unknown>;
  sloCallBuckets: (s: Store, q: { project: string; tools: string[]; from: number; to: number; bucketMs: number }) => Promise<unknown>;
  sloBadCalls: (s: Store, q: { project: string; tools: string[]; from: number; to: number; countDeclines: boolean; countRecovered: boolean }) => Promise<unknown>;
  loadAlertContext: (s: Store, project: string, q: { tool: string; match: "failed"; from: number; to: number }) => Promise<unknown>;
  codeSourceCounts: (s: Store, project: string) => Promise<unknown>;
  storedToldCalls: (s: Store, project: string, callIds: string[]) => Promise<unknown>;
}

// Loaded by path, so a module of another checkout resolves its relative imports within that checkout.
async function queriesOf(root: string): Promise<Queries> {
  const load = (file: string) => import(path.join(root, file)) as Promise<Record<string, unknown>>;
  const mods = await Promise.all(
    ["list-runs", "get-run-timeline", "get-tool-detail", "get-overview", "list-tools", "list-codes"].map((m) => load(`db/queries/${m}.ts`)),
  );
  const [history, freshness] = await Promise.all([load("db/drift/get-code-release-history.ts"), load("db/drift/get-drift-freshness.ts")]);
  // The reads that take a span's emitter values (span_emitters).
  const emitterReads = await Promise.all(["db/slos/slo-counts.ts", "db/alerts/context.ts", "db/classify/code-sources.ts", "db/told/stored-told-calls.ts"].map(load));
  return Object.assign({}, ...mods, history, freshness, ...emitterReads) as Queries;
}

const open = async (at: string): Promise<Store> => (isPostgresUrl(at) ? openPgStore(at, { migrate: false }) : openSqliteStore(at, { migrate: false }));
if (cold && !(isPostgresUrl(a) && isPostgresUrl(b))) {
  console.error("--cold needs two postgres:// URLs");
  process.exit(2);
}
const here = path.resolve(import.meta.dirname, "..");
const sides: { at: string; store: Store; q: Queries }[] = [
  { at: a, store: await open(a), q: await queriesOf(aCode ? path.resolve(aCode) : here) },
  { at: b, store: await open(b), q: await queriesOf(here) },
];

/** The time of one call, on the side's pool or (--cold) on a connection no query has used yet. */
async function timeOne(side: (typeof sides)[number], fn: (s: Store, q: Queries) => Promise<unknown>): Promise<number> {
  const store = cold ? await openPgStore(side.at, { migrate: false, poolMax: 1 }) : side.store;
  try {
    if (cold) await store.get("SELECT 1 AS one");
    const t0 = performance.now();
    await fn(store, side.q);
    return performance.now() - t0;
  } finally {
    if (cold) await store.close();
  }
}
const window = resolveWindow({ range: "7d" }, Date.now());
const base = { projectId: "default", window, filters: {} };
const weekAgo = Date.now() - 7 * 86_400_000;
const rq = (o: Record<string, string>) => listRunsQuerySchema.parse(o);
const page = { offset: 0, limit: 100 };
const all: [string, (s: Store, q: Queries) => Promise<unknown>][] = [
  ["runs", (s, q) => q.listRuns(s, rq({}))],
  ["runs hasErrors", (s, q) => q.listRuns(s, rq({ from: String(weekAgo), hasErrors: "1" }))],
  ["runs tool", (s, q) => q.listRuns(s, rq({ tool: "tool_00_search" }))],
  ["runs code", (s, q) => q.listRuns(s, rq({ code: "code_00_failed" }))],
  ["run timeline run-1", (s, q) => q.getRunTimeline(s, "default", "run-1", { limit: RUN_PAGE_ATTEMPTS })],
  ["tool detail", (s, q) => q.getToolDetail(s, { ...base, tool: "tool_00_search" })],
  ["overview", (s, q) => q.getOverview(s, base)],
  ["tools", (s, q) => q.listTools(s, { ...base, sort: "failures", dir: "desc", page })],
  ["codes", (s, q) => q.listCodes(s, { ...base, sort: "failures", dir: "desc", page })],
  ["drift history", (s, q) => Promise.all([q.getDriftFreshness(s, "default"), q.getCodeReleaseHistory(s, { project: "default", code: "code_00_failed" })])],
  ["slo buckets", (s, q) => q.sloCallBuckets(s, { project: "default", tools: ["tool_00_search"], from: weekAgo, to: Date.now(), bucketMs: 3_600_000 })],
  ["slo bad calls", (s, q) => q.sloBadCalls(s, { project: "default", tools: ["tool_00_search"], from: weekAgo, to: Date.now(), countDeclines: true, countRecovered: false })],
  ["alert context", (s, q) => q.loadAlertContext(s, "default", { tool: "tool_00_search", match: "failed", from: weekAgo, to: Date.now() })],
  ["code sources", (s, q) => q.codeSourceCounts(s, "default")],
  ["told calls", (s, q) => q.storedToldCalls(s, "default", Array.from({ length: 100 }, (_, i) => `run-${i * 7}-c1`))],
];
const cases = only ? all.filter(([n]) => n.startsWith(only)) : all;
const times = cases.map(() => [[], []] as number[][]);
for (const [, fn] of cases) for (const side of sides) await fn(side.store, side.q); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const [i, [, fn]] of cases.entries()) {
    for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) {
      times[i]![k]!.push(await timeOne(sides[k]!, fn));
    }
  }
}
const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
console.log(`${"query".padEnd(22)} ${"A p50".padStart(8)} ${"B p50".padStart(8)} ${"A p95".padStart(8)} ${"B p95".padStart(8)}  B/A p50`);
for (const [i, [name]] of cases.entries()) {
  const [ta, tb] = times[i]! as [number[], number[]];
  console.log(`${name.padEnd(22)} ${pct(ta, 0.5).toFixed(1).padStart(8)} ${pct(tb, 0.5).toFixed(1).padStart(8)} ${pct(ta, 0.95).toFixed(1).padStart(8)} ${pct(tb, 0.95).toFixed(1).padStart(8)}  ${(pct(tb, 0.5) / pct(ta, 0.5)).toFixed(2)}`);
}
for (const side of sides) await side.store.close();
