/**
 * Read-path benchmark: seeds a temporary database with ~1M realistic tool-call spans over 7 days,
 * times every dashboard query function in process, then starts the built server and times the HTTP
 * read endpoints. Prints p50/p95 per endpoint. Needs a prior `next build` (FAULTLINE_DIST_DIR honoured).
 *
 *   npx tsx bench/read.ts [--spans 1000000] [--copies 1] [--rounds 40] [--no-http] [--db PATH | --db postgres://…] [--analyze | --no-analyze]
 *
 * Prints bytes per span (total, and per table and index; on PostgreSQL again once the partitions job
 * has packed the days that are over, as a live node's does daily). SQLite is measured as a live node runs it,
 * without ANALYZE (`--analyze` to measure with statistics); PostgreSQL after VACUUM (ANALYZE), as
 * autovacuum leaves it (`--no-analyze` for freshly loaded tables). `--spans 10000000` is the 10M run
 * (run it alone on a quiet machine: it needs ~9 GB on PostgreSQL); `--copies 20` seeds it in minutes
 * (a twentieth through ingest, copied 20 times inside the database: bench/read-replicate.ts).
 *
 * `--db PATH` keeps (and reuses) a seeded SQLite file; `--db postgres://…` runs on that PostgreSQL
 * database instead (seeded when it holds no spans yet, never dropped).
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { isPostgresUrl, openStore, type Store } from "@/db/client";
import { emptyRowBatch, type RowBatch, type SpanRow } from "@/lib/ingest/rows";
import { writeRows } from "@/db/ingest/write-rows";
import { ensurePartitions } from "@/db/partitions";
import { packClosedDays } from "@/db/store/engine-upkeep";
import { ensureDefaultProject } from "@/db/keys";
import { getCodeDetail } from "@/db/queries/get-code-detail";
import { getOverview } from "@/db/queries/get-overview";
import { getSetupInfo } from "@/db/queries/get-setup-info";
import { getToolDetail } from "@/db/queries/get-tool-detail";
import { listCodes } from "@/db/queries/list-codes";
import { listTools } from "@/db/queries/list-tools";
import type { DashboardParams } from "@/db/queries/rollup-filters";
import { resolveWindow } from "@/lib/contracts/filters";
import { seededRandom as prng } from "@/lib/runtime";
import { startBuiltServer } from "./built-server";
import { replicateSeed } from "./read-replicate";
import { spread } from "./ingest-common";

const HOUR = 3_600_000;


interface CodeDef { code: string; outcome: string; errorClass: string; retryable: boolean; retryAfterMs: number | null }

const CLASSES: [string, string, boolean][] = [
  ["failed", "ToolFailure", true], ["failed", "ToolFailure", false], ["declined", "ToolRefusal", false],
  ["refused", "ToolNotPermittedError", false], ["timed_out", "ToolTimedOutError", true], ["invalid_arguments", "ToolArgumentValidationError", false],
  ["not_found", "ToolNotFoundError", false], ["result_rejected", "ToolResultError", false],
];

/** Spans of the one long run seeded (a run page must stay fast at this size). */
export const LONG_RUN_SPANS = 10_000;

/**
 * Seeds `total` spans ending at `end`: 40 tools, 60 codes, 4 releases rolling out over 7 days,
 * 3 services; ~12% of first attempts fail, retryable failures are retried (backoff sometimes far from
 * retry_after), a few fail closed on a long retry_after. Failures carry the message the model was told
 * and every call its arguments' hash; the call after a surfaced error answers it (told texts); every
 * run has its run record, failed with an error when a failure ended it. The first run is a long one of
 * LONG_RUN_SPANS spans (when `total` allows), as an agent looping for hours makes.
 */
export async function seedRealistic(
  store: Store,
  total: number,
  end: number,
  { batchSize = 5000, write = (batch: RowBatch) => writeRows(store, "default", batch) }: { batchSize?: number; write?: (batch: RowBatch) => Promise<unknown> } = {},
): Promise<void> {
  const rnd = prng(42);
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const tools = Array.from({ length: 40 }, (_, i) => `tool_${String(i).padStart(2, "0")}_${["search", "book", "cancel", "refund", "lookup"][i % 5]}`);
  const codes: CodeDef[] = Array.from({ length: 60 }, (_, i) => {
    const [outcome, errorClass, retryable] = CLASSES[i % CLASSES.length]!;
    return { code: `code_${String(i).padStart(2, "0")}_${outcome}`, outcome, errorClass, retryable, retryAfterMs: retryable ? pick([1000, 2000, 5000, 30_000, 3_600_000]) : null };
  });
  const toolCodes = tools.map((_, i) => [0, 1, 2, 3, 4].map((k) => codes[(i * 3 + k * 7) % codes.length]!));
  const releases = ["2026.11.1", "2026.11.2", "2026.11.3", "2026.12.0"];
  const services = ["support-agent", "booking-agent", "billing-agent"];
  const start = end - 7 * 24 * HOUR;
  let batch: RowBatch = emptyRowBatch();
  let written = 0;
  let runN = 0;
  const flush = async () => {
    const full = batch;
    batch = emptyRowBatch();
    await write(full);
  };
  while (written < total) {
    const runId = `run-${++runN}`;
    let t = start + Math.floor(rnd() * (end - start - HOUR));
    const runStart = t;
    const frac = (t - start) / (end - start);
    const release = releases[Math.min(releases.length - 1, Math.floor(frac * releases.length + (rnd() - 0.5) * 0.3))] ?? releases[0]!;
    const service = pick(services);
    const long = runN === 1 && total >= 10 * LONG_RUN_SPANS;
    // A long run's calls are close together (its 10,000 spans fit in a few hours of the week).
    const calls = long ? LONG_RUN_SPANS : 2 + Math.floor(rnd() * 6);
    let surfaced: string | null = null;
    let runError: string | null = null;
    for (let c = 0; c < calls && written < total; c++) {
      const ti = Math.floor(Math.pow(rnd(), 1.6) * tools.length);
      const tool = tools[ti]!;
      const failP = 0.04 + (ti % 7) * 0.025;
      let attempt = 1;
      for (;;) {
        const fails = rnd() < (attempt === 1 ? failP : 0.45);
        const def = fails ? pick(toolCodes[ti]!) : null;
        const duration = 20 + Math.floor(rnd() * 400);
        let decision: string | null = null;
        let backoff: number | null = null;
        if (def) {
          if (!def.retryable) decision = def.outcome === "declined" ? "delivered" : "surfaced";
          else if (def.retryAfterMs === 3_600_000) decision = "failed_closed";
          else if (attempt >= 4) decision = "exhausted";
          else {
            decision = "retried";
            backoff = rnd() < 0.2 ? def.retryAfterMs! * 15 : def.retryAfterMs! + Math.floor(rnd() * 500);
          }
        }
        const row: SpanRow = {
          spanId: `s${written}`, traceId: null, parentSpanId: null, runId, callId: `${runId}-c${c}`, tool,
          toolVersion: `1.${releases.indexOf(release)}.0`, release, service, environment: "prod", sdkName: "faultline-runtime",
          sdkVersion: "0.1.0", attempt, startedAt: t, startedSubNs: null, endedAt: t + duration, outcome: def ? def.outcome : "ok",
          code: def ? def.code : null, errorClass: def ? def.errorClass : null, retryable: def ? def.retryable : null,
          retryAfterMs: def ? def.retryAfterMs : null, backoffMs: backoff, decision, permitted: def?.outcome !== "refused",
          abandoned: false, message: def ? `${def.errorClass}: ${tool} failed (${def.code}) for request ${runN}-${c}` : null, derived: null,
          argsHash: (((runN * 31 + c) * 2654435761) >>> 0).toString(16).padStart(8, "0").repeat(8), afterError: attempt === 1 ? surfaced : null, source: "native",
        };
        // The call's final word as the model got it (tool_errors), with the text it was told.
        if (def && decision !== "retried") {
          batch.toolErrors.push({
            index: batch.spans.length + batch.runs.length + batch.toolErrors.length,
            row: {
              eventId: `${row.spanId}-err`, runId, callId: row.callId, tool, toolVersion: row.toolVersion, release, service, environment: "prod",
              code: def.code, errorClass: def.errorClass, retryable: def.retryable, attempts: attempt, decision, derived: null,
              told: `${tool} could not finish (${def.code}). ${def.retryable ? "It may work if you try again later." : "Do not try this call again; tell the user."}`,
              occurredAt: t + duration, source: "native", experiment: null, variant: null,
            },
          });
        }
        if (decision === "surfaced") surfaced = row.callId;
        else if (attempt === 1) surfaced = null;
        if (decision === "exhausted" || decision === "failed_closed") runError = row.message;
        batch.spans.push({ index: batch.spans.length, row });
        written++;
        if (batch.spans.length >= batchSize) await flush();
        t += duration + (backoff ?? 0);
        if (decision !== "retried" || written >= total) break;
        attempt++;
      }
      t += long ? 5 + Math.floor(rnd() * 50) : 50 + Math.floor(rnd() * 2000);
    }
    batch.runs.push({
      index: batch.spans.length + batch.runs.length + batch.toolErrors.length,
      row: {
        recordId: `${runId}-end`, runId, agent: service, release, service, environment: "prod", sdkName: "faultline-runtime", sdkVersion: "0.1.0",
        startedAt: runStart, endedAt: t, state: runError ? "failed" : "completed", deadlineAt: null, maxToolAttempts: 4, error: runError,
        unansweredToolUses: 0, traceId: null, spanId: null, source: "native",
      },
    });
  }
  if (batch.spans.length > 0 || batch.runs.length > 0) await flush();
}

/**
 * Bytes per stored span, in total and per table and index (rollups, runs and facts included): what
 * each structure costs, from the engine's own page accounting (SQLite's dbstat, PostgreSQL's relation sizes).
 */
async function printStorage(store: Store): Promise<void> {
  const spans = Number((await store.get<{ n: number }>("SELECT count(*) AS n FROM tool_call_spans"))!.n);
  const rows =
    store.dialect === "sqlite"
      ? (store.sqlite.pragma("wal_checkpoint(TRUNCATE)"),
        await store.all<{ name: string; bytes: number }>("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC"))
      : await store.all<{ name: string; bytes: number }>(
          `SELECT coalesce(p.relname, c.relname) AS name, sum(pg_relation_size(c.oid)) AS bytes
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i', 't', 'm')
           GROUP BY 1 ORDER BY 2 DESC`,
        );
  const total = rows.reduce((sum, r) => sum + Number(r.bytes), 0);
  console.log(`\nstorage: ${(total / 1e6).toFixed(1)} MB for ${spans} spans = ${(total / spans).toFixed(0)} bytes per span (target ${store.dialect === "sqlite" ? 250 : 400})`);
  for (const r of rows.slice(0, 25)) console.log(`  ${r.name.padEnd(44)} ${(Number(r.bytes) / spans).toFixed(1).padStart(7)} B/span`);
}

const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const fmt = (ms: number) => ms.toFixed(1).padStart(7);

function timeIt(label: string, rounds: number, fn: () => unknown | Promise<unknown>) {
  return (async () => {
    await fn(); // warm-up: prepares statements, fills caches
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t0 = performance.now();
      await fn();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`${label.padEnd(58)} p50 ${fmt(pct(times, 0.5))} ms   p95 ${fmt(pct(times, 0.95))} ms`);
    return pct(times, 0.95);
  })();
}

async function main() {
  const args = process.argv.slice(2);
  const arg = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const total = arg("--spans", 1_000_000);
  const rounds = arg("--rounds", 40);
  // --db PATH keeps (and reuses) the seeded database between runs; otherwise a temp dir is removed.
  const keep = args.includes("--db") ? args[args.indexOf("--db") + 1]! : null;
  const pgUrl = keep !== null && isPostgresUrl(keep) ? keep : null;
  const dir = keep && !pgUrl ? path.dirname(path.resolve(keep)) : mkdtempSync(path.join(tmpdir(), "faultline-bench-read-"));
  const dbPath = keep && !pgUrl ? path.resolve(keep) : path.join(dir, "faultline.db");
  const store = await openStore(pgUrl ?? dbPath);
  console.log(`dialect: ${store.dialect}`);
  const reuse = pgUrl
    ? (await store.get("SELECT 1 AS one FROM tool_call_spans LIMIT 1")) !== undefined
    : keep !== null && existsSync(dbPath) && (await store.get("SELECT 1 AS one FROM tool_call_spans LIMIT 1")) !== undefined;
  await ensureDefaultProject(store);
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const t0 = performance.now();
  // As a running node would have them: the seeded week's daily partitions exist before the rows arrive.
  if (!reuse && store.dialect === "postgres") await ensurePartitions(store, end, 8);
  // --copies K seeds total/K spans through ingest and has the database copy them K times (minutes for 10M).
  const copies = arg("--copies", 1);
  if (!reuse) {
    await seedRealistic(store, Math.ceil(total / copies), end);
    const copyStart = performance.now();
    await replicateSeed(store, copies);
    if (copies > 1) console.log(`ingested ${Math.ceil(total / copies)} spans in ${((copyStart - t0) / 1000).toFixed(1)} s, copied ${copies}× in ${((performance.now() - copyStart) / 1000).toFixed(1)} s`);
  }
  const counts = await store.get(
    "SELECT (SELECT count(*) FROM tool_call_spans) AS spans, (SELECT count(*) FROM span_rollups_hourly) AS rollups, (SELECT count(*) FROM span_rollups_6h) AS rollups6h, (SELECT count(*) FROM delay_histograms_hourly) AS hist, (SELECT count(DISTINCT code) FROM codes) AS codes, (SELECT count(DISTINCT tool) FROM span_rollups_hourly) AS tools",
  );
  console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s:`, counts);
  await printStorage(store);
  if (store.dialect === "postgres") {
    // What a live node's daily partitions job then does to the days that are over (db/partitions/pack-closed-partitions.ts).
    const packStart = performance.now();
    const packed = await packClosedDays(store, Date.now());
    console.log(`\npartitions job: ${packed.detail} in ${((performance.now() - packStart) / 1000).toFixed(1)} s`);
    await printStorage(store);
  }
  // A live SQLite node never runs ANALYZE (queries must be fast on the planner's defaults): that is the
  // default here; --analyze measures with statistics as well. PostgreSQL's autovacuum analyses on its
  // own, so there the default is its steady state and --no-analyze the freshly loaded tables.
  const analyze = store.dialect === "sqlite" ? args.includes("--analyze") : !args.includes("--no-analyze");
  console.log(`statistics: ${analyze ? "ANALYZE run" : "no ANALYZE"} (${store.dialect === "sqlite" ? "--analyze" : "--no-analyze"} for the other)`);
  if (store.dialect === "sqlite") {
    store.sqlite.pragma("wal_checkpoint(TRUNCATE)");
    if (analyze) store.sqlite.exec("ANALYZE");
  } else {
    // Freshly loaded tables have neither statistics nor a visibility map until autovacuum has run
    // (an index-only scan then still reads the heap): measure the steady state a live node has.
    await store.run(analyze ? "VACUUM (ANALYZE)" : "VACUUM");
  }

  const window = resolveWindow({ range: "7d" }, Date.now());
  const base: DashboardParams = { projectId: "default", window, filters: {} };
  const busyTool = "tool_00_search";
  const code = "code_00_failed";
  console.log(`\nin-process query functions (${rounds} rounds, 7-day window)`);
  const FIRST_PAGE = { offset: 0, limit: 100 };
  await timeIt("getOverview", rounds, () => getOverview(store, base));
  await timeIt("getOverview (service filter)", rounds, () => getOverview(store, { ...base, filters: { service: "booking-agent" } }));
  await timeIt("listTools", rounds, () => listTools(store, { ...base, sort: "failures", dir: "desc", page: FIRST_PAGE }));
  await timeIt("listTools (code filter)", rounds, () => listTools(store, { ...base, filters: { code }, sort: "failures", dir: "desc", page: FIRST_PAGE }));
  await timeIt("getToolDetail (busiest tool)", rounds, () => getToolDetail(store, { ...base, tool: busyTool }));
  await timeIt("listCodes", rounds, () => listCodes(store, { ...base, sort: "failures", dir: "desc", page: FIRST_PAGE }));
  await timeIt("getCodeDetail", rounds, () => getCodeDetail(store, { ...base, code }));
  await timeIt("getSetupInfo", rounds, () => getSetupInfo(store, "default"));

  if (!args.includes("--no-http")) {
    const server = await startBuiltServer(dbPath, pgUrl ? { FAULTLINE_DATABASE_URL: pgUrl } : {});
    const url = server.url;
    try {
      const get = async (p: string) => {
        const res = await fetch(url + p);
        if (!res.ok) throw new Error(`${p} -> ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      };
      // The job worker folds the seeded spans into drift after start-up; reads never wait for it.
      // Time the catch-up once, then the steady state like every other endpoint.
      const refreshStart = performance.now();
      for (;;) {
        const answer = (await (await fetch(`${url}/api/v1/drift`)).json()) as { upToDate: boolean };
        if (answer.upToDate) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      console.log(`\ndrift caught up in the background after start-up: ${((performance.now() - refreshStart) / 1000).toFixed(1)} s`);
      const busyRun = (await store.get<{ id: string }>("SELECT run_id AS id FROM run_stats ORDER BY attempts DESC, run_id LIMIT 1"))!.id;
      const weekAgo = Date.now() - 7 * 86_400_000;
      console.log(`\nHTTP endpoints on next start (${rounds} rounds, sequential)`);
      const endpoints = [
        "/api/v1/overview?range=7d",
        "/api/v1/tools?range=7d",
        "/api/v1/tools?range=7d&code=code_00_failed&sort=retry_share",
        "/api/v1/tools?range=7d&format=csv",
        `/api/v1/tools/detail?range=7d&tool=${busyTool}`,
        "/api/v1/codes?range=7d",
        `/api/v1/codes/detail?range=7d&code=${code}`,
        "/api/v1/projects",
        "/api/v1/setup",
        "/api/v1/runs",
        `/api/v1/runs?from=${weekAgo}&hasErrors=1`,
        `/api/v1/runs?tool=${busyTool}`,
        `/api/v1/runs?code=${code}`,
        `/api/v1/runs/${encodeURIComponent(busyRun)}`,
        "/api/v1/drift",
        "/api/v1/drift/summary",
        `/api/v1/drift/codes/${code}/history`,
        "/api/v1/conformance",
      ];
      for (const e of endpoints) await timeIt(`GET ${e}`, rounds, () => get(e));
      // What each filter costs over the plain list, measured in turns with it, so the machine's load
      // cancels out: the filtered lists must stay within a small factor of the plain one at any size.
      console.log(`\nrun list filters against the plain list (${rounds} interleaved rounds): ratio median (min–max)`);
      for (const e of [`/api/v1/runs?tool=${busyTool}`, `/api/v1/runs?code=${code}`, `/api/v1/runs?code=failed`]) {
        const ratios: number[] = [];
        for (let i = 0; i < rounds; i++) {
          const [a, b] = i % 2 === 0 ? [e, "/api/v1/runs"] : ["/api/v1/runs", e];
          const times = new Map<string, number>();
          for (const p of [a, b]) {
            const t0 = performance.now();
            await get(p);
            times.set(p, performance.now() - t0);
          }
          ratios.push(times.get(e)! / times.get("/api/v1/runs")!);
        }
        console.log(`${`GET ${e}`.padEnd(58)} ${spread(ratios, 2)}`);
      }
    } finally {
      await server.stop();
    }
  }
  await store.close();
  if (!keep || pgUrl) rmSync(dir, { recursive: true, force: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
