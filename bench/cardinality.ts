/**
 * High-cardinality benchmark (issue 15 item 7): seeds a temporary SQLite database with one failing
 * span per code (100k distinct codes by default) spread over 2,000 tools, 5,000 releases and
 * 20,000 runs, starts the built server and prints, for each page and list API, its size and
 * median time, and the slowest health probe answered while those pages were being served.
 * Needs a prior `npm run build`.
 *
 *   npx tsx bench/cardinality.ts [--codes 100000] [--rounds 3]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { openStore } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { writeRows } from "@/db/ingest/write-rows";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { startBuiltServer } from "./built-server";

const HOUR = 3_600_000;
const pad = (n: number) => String(n).padStart(6, "0");

function failingSpan(i: number, at: number): SpanRow {
  return {
    spanId: `s${i}`, traceId: null, parentSpanId: null, runId: `run-${pad(i % 20_000)}`, callId: `c${i}`, tool: `tool_${pad(i % 2000)}`,
    toolVersion: "1.0.0", release: `r-${pad(i % 5000)}`, service: "cardinality", environment: "prod", sdkName: "faultline-runtime",
    sdkVersion: "0.1.0", attempt: 1, startedAt: at, startedSubNs: null, endedAt: at + 10, outcome: "failed", code: `code_${pad(i)}`, errorClass: "ToolFailure",
    retryable: false, retryAfterMs: null, backoffMs: null, decision: "surfaced", permitted: true, abandoned: false, message: null,
    derived: null, argsHash: null, afterError: null, source: "native",
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const args = process.argv.slice(2);
  const arg = (name: string, fallback: number) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback);
  const codes = arg("--codes", 100_000);
  const rounds = arg("--rounds", 3);
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-bench-cardinality-"));
  const dbPath = path.join(dir, "faultline.db");
  const store = await openStore(dbPath);
  await ensureDefaultProject(store);
  const end = Math.floor(Date.now() / HOUR) * HOUR;
  const t0 = performance.now();
  for (let from = 0; from < codes; from += 5000) {
    const batch = emptyRowBatch();
    for (let i = from; i < Math.min(codes, from + 5000); i++) batch.spans.push({ index: batch.spans.length, row: failingSpan(i, end - 20 * HOUR + i * 10) });
    await writeRows(store, "default", batch);
  }
  if (store.dialect === "sqlite") store.sqlite.exec("ANALYZE");
  console.log(`seeded ${codes} codes in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await store.close();

  const server = await startBuiltServer(dbPath);
  try {
    let slowestHealth = 0;
    let healthFailures = 0;
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const start = performance.now();
        const ok = await fetch(`${server.url}/api/health`).then((r) => r.arrayBuffer().then(() => r.ok), () => false);
        if (!ok) healthFailures++;
        slowestHealth = Math.max(slowestHealth, performance.now() - start);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const tool = "tool_000000";
    const paths = [
      "/codes?range=24h",
      "/api/v1/codes?range=24h",
      "/api/v1/codes?range=24h&q=code_0999",
      "/api/v1/codes?range=24h&offset=99900",
      "/tools?range=24h",
      "/api/v1/tools?range=24h",
      `/tools/${tool}?range=24h`,
      `/api/v1/tools/detail?range=24h&tool=${tool}`,
      "/runs?range=24h",
      "/api/v1/runs?range=24h",
      "/",
    ];
    console.log(`\n${"path".padEnd(44)} ${"status".padStart(6)} ${"bytes".padStart(10)} ${"median ms".padStart(10)} (${rounds} rounds)`);
    for (const p of paths) {
      const times: number[] = [];
      let bytes = 0;
      let status = 0;
      for (let r = 0; r < rounds; r++) {
        const start = performance.now();
        const res = await fetch(server.url + p);
        bytes = (await res.arrayBuffer()).byteLength;
        status = res.status;
        times.push(performance.now() - start);
      }
      console.log(`${p.padEnd(44)} ${String(status).padStart(6)} ${bytes.toLocaleString("en-US").padStart(10)} ${median(times).toFixed(0).padStart(10)}`);
    }
    probing = false;
    await prober;
    console.log(`\nslowest /api/health answer while the pages above were served: ${slowestHealth.toFixed(0)} ms; failed probes: ${healthFailures}`);
  } catch (error) {
    console.error(server.log());
    throw error;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
