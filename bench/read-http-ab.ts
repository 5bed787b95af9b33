/**
 * The read endpoints of two builds over one PostgreSQL database, in turns: `next start` of another
 * checkout (A, e.g. a worktree of main, built) and of this one (B), each request of a round sent to
 * A then B, the order swapped every round, so both sides see the same machine load. Prints p50/p95
 * per endpoint and side, and B/A at the median. For the 10M table of docs/ingest-performance.md on a
 * shared machine, where runs taken one after the other see different loads.
 *
 *   npx tsx bench/read-http-ab.ts A-DIR postgres://…/bench10m [ROUNDS=20]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { startBuiltServer } from "./built-server";

const [aDir, url, roundsArg] = process.argv.slice(2);
if (!aDir || !url) {
  console.error("usage: npx tsx bench/read-http-ab.ts A-DIR postgres://… [ROUNDS]");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 20);
const env = { FAULTLINE_DATABASE_URL: url };
// The SQLite path is unused with a database URL; each server gets its own all the same.
const dir = mkdtempSync(path.join(tmpdir(), "faultline-read-http-ab-"));
const servers = [await startBuiltServer(path.join(dir, "a.db"), env, path.resolve(aDir)), await startBuiltServer(path.join(dir, "b.db"), env)];
const weekAgo = Date.now() - 7 * 86_400_000;
const endpoints = [
  "/api/v1/overview?range=7d",
  "/api/v1/tools?range=7d",
  "/api/v1/tools?range=7d&code=code_00_failed&sort=retry_share",
  "/api/v1/tools?range=7d&format=csv",
  "/api/v1/tools/detail?range=7d&tool=tool_00_search",
  "/api/v1/codes?range=7d",
  "/api/v1/codes/detail?range=7d&code=code_00_failed",
  "/api/v1/projects",
  "/api/v1/setup",
  "/api/v1/runs",
  `/api/v1/runs?from=${weekAgo}&hasErrors=1`,
  "/api/v1/runs?tool=tool_00_search",
  "/api/v1/runs?code=code_00_failed",
  "/api/v1/runs/run-1",
  "/api/v1/drift",
  "/api/v1/drift/summary",
  "/api/v1/drift/codes/code_00_failed/history",
  "/api/v1/conformance",
];
async function time(base: string, p: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(base + p);
  if (!res.ok) throw new Error(`${p} -> ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - t0;
}
const pct = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const f = (ms: number) => ms.toFixed(1).padStart(7);
try {
  console.log(`${"endpoint".padEnd(62)}   A p50   B p50   A p95   B p95  B/A p50`);
  for (const e of endpoints) {
    const times: number[][] = [[], []];
    for (const s of servers) await time(s.url, e); // warm-up
    for (let r = 0; r < rounds; r++) for (const k of r % 2 === 0 ? [0, 1] : [1, 0]) times[k]!.push(await time(servers[k]!.url, e));
    const [a, b] = times as [number[], number[]];
    console.log(`${e.padEnd(62)} ${f(pct(a, 0.5))} ${f(pct(b, 0.5))} ${f(pct(a, 0.95))} ${f(pct(b, 0.95))}  ${(pct(b, 0.5) / pct(a, 0.5)).toFixed(2)}`);
  }
} finally {
  for (const s of servers) await s.stop();
  rmSync(dir, { recursive: true, force: true });
}
