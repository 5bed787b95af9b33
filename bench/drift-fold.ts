/**
 * `npm run bench:drift-fold` — health latency while the server folds a cold drift backlog.
 *
 * Seeds a temporary database with `--records` spans (default 1,680,000: ten times the 168k backlog
 * that stalled requests for 5–8 s when reads folded synchronously), none folded into drift, then
 * starts the built server: its start-up job folds the backlog in the background. Meanwhile one
 * client probes GET /api/health back to back and another reads the drift findings every 250 ms;
 * the run ends when the findings say they are up to date. Prints health p50/p99/max during the
 * fold, the fold's duration and rate, and, as the baseline measured in the same run on a copy of
 * the same database, how long one synchronous fold (what a drift read used to do) holds the thread.
 * Needs a build (`npm run build`).
 *
 *   npx tsx bench/drift-fold.ts [--records 1680000]
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openSqliteStore } from "@/db/client";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { ensureDefaultProject } from "@/db/keys";
import { startBuiltServer } from "./built-server";
import { seedRealistic } from "./read";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function main() {
  const records = arg("records", 1_680_000);
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-fold-"));
  const dbPath = path.join(dir, "faultline.db");
  const store = openSqliteStore(dbPath);
  await ensureDefaultProject(store);
  const t0 = performance.now();
  await seedRealistic(store, records, Date.now());
  store.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  const rows = (await store.get<{ spans: number; errors: number }>("SELECT (SELECT count(*) FROM tool_call_spans) AS spans, (SELECT count(*) FROM tool_errors) AS errors"))!;
  console.log(`seeded ${rows.spans} spans and ${rows.errors} final errors in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await store.close();

  // Baseline: the same backlog folded in one synchronous call, as a drift read used to do.
  const copy = path.join(dir, "baseline.db");
  copyFileSync(dbPath, copy);
  const baseline = openSqliteStore(copy);
  const b0 = performance.now();
  await refreshDrift(baseline, "default");
  const blockedMs = performance.now() - b0;
  await baseline.close();
  console.log(`baseline: the backlog folded in one call on the main thread takes ${(blockedMs / 1000).toFixed(1)} s (SQLite's statements block the thread throughout)`);

  const server = await startBuiltServer(dbPath);
  const url = server.url;
  try {
    const f0 = performance.now();
    const health: number[] = [];
    let done = false;
    let driftReads = 0;
    const prober = (async () => {
      while (!done) {
        const s = performance.now();
        const res = await fetch(`${url}/api/health`);
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`health answered ${res.status}`);
        health.push(performance.now() - s);
      }
    })();
    for (;;) {
      const answer = (await (await fetch(`${url}/api/v1/drift`)).json()) as { upToDate: boolean; findings: unknown[] };
      driftReads++;
      if (answer.upToDate) {
        done = true;
        console.log(`fold done: ${answer.findings.length} findings`);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    await prober;
    const foldMs = performance.now() - f0;
    const sorted = [...health].sort((a, b) => a - b);
    console.log(`background fold: ${(foldMs / 1000).toFixed(1)} s (${Math.round((rows.spans + rows.errors) / (foldMs / 1000))} rows/s), ${driftReads} drift reads answered meanwhile`);
    console.log(`health during the fold: ${health.length} probes, p50 ${ms(pct(sorted, 50))}, p99 ${ms(pct(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)}`);
    // Same-run baseline: the same probe for 10 s once nothing is folding.
    const idle: number[] = [];
    const idleUntil = performance.now() + 10_000;
    while (performance.now() < idleUntil) {
      const s = performance.now();
      await (await fetch(`${url}/api/health`)).arrayBuffer();
      idle.push(performance.now() - s);
    }
    const sortedIdle = [...idle].sort((a, b) => a - b);
    console.log(`health with nothing folding (same run): ${idle.length} probes, p50 ${ms(pct(sortedIdle, 50))}, p99 ${ms(pct(sortedIdle, 99))}, max ${ms(sortedIdle.at(-1) ?? NaN)}`);
    console.log(`ratio during/idle: p50 ${(pct(sorted, 50) / pct(sortedIdle, 50)).toFixed(2)}, p99 ${(pct(sorted, 99) / pct(sortedIdle, 99)).toFixed(2)}; worst wait ${ms(sorted.at(-1) ?? NaN)} vs ${ms(blockedMs)} a synchronous fold blocked`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
