/**
 * First-load JavaScript per page, in gzip: starts the built app (`next start`, FAULTLINE_DIST_DIR
 * honoured) on a temporary database with a small seed, fetches each page's HTML, and sums the gzip
 * size of every script it loads (`<script src>` and the nonce'd inline payloads). Prints each page
 * against its target: 200 KB without charts, 300 KB with. Needs a prior `next build`.
 *
 *   npx tsx bench/bundle-size.ts [--json]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { openStore } from "@/db/client";
import { createKey, ensureDefaultProject } from "@/db/keys";
import { startBuiltServer } from "./built-server";

const KB = 1024;
const TARGET_PLAIN = 200 * KB;
const TARGET_CHARTS = 300 * KB;

/** The pages, and whether they draw recharts charts (their target is the larger one). */
const PAGES: { path: string; charts: boolean }[] = [
  { path: "/", charts: true },
  { path: "/tools", charts: false },
  { path: "/tools/cancel_booking", charts: true },
  { path: "/codes", charts: false },
  { path: "/codes/upstream_unavailable", charts: true },
  { path: "/runs", charts: false },
  { path: "/runs/bench-run-1", charts: false },
  { path: "/drift", charts: false },
  { path: "/conformance", charts: false },
  { path: "/releases", charts: true },
  { path: "/releases/1.0.0", charts: true },
];

/** One run with a retried call, so every page renders its data view rather than an empty state. */
function seedBatch(now: number) {
  const span = (attempt: number, outcome: string, code: string | null) => ({
    type: "tool_call_span", id: `bench-span-${attempt}`, run_id: "bench-run-1", call_id: "toolu_bench", tool: "cancel_booking",
    attempt, started_at: now - 60_000 + attempt * 1000, ended_at: now - 60_000 + attempt * 1000 + 400, outcome, code,
    error_class: code ? "ToolFailure" : null, retryable: code ? true : null, backoff_ms: code ? 500 : null, decision: code ? "retried" : null,
  });
  return {
    resource: { service: "bench-agent", release: "1.0.0", environment: "prod" },
    records: [
      { type: "run", id: "bench-run-rec", run_id: "bench-run-1", agent: "bench-agent", started_at: now - 61_000, ended_at: now - 50_000, state: "completed" },
      span(1, "failed", "upstream_unavailable"),
      span(2, "ok", null),
    ],
  };
}

async function startApp(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-bundle-"));
  const dbPath = path.join(dir, "faultline.db");
  const store = await openStore(dbPath);
  await ensureDefaultProject(store);
  const { key } = await createKey(store, "default", "bench key");
  await store.close();
  const server = await startBuiltServer(dbPath);
  const url = server.url;
  const batch = JSON.stringify(seedBatch(Date.now()));
  let ingest: Response;
  // A just-started server on a busy machine may answer 429 (backpressure): try again shortly.
  for (let i = 0; ; i++) {
    ingest = await fetch(`${url}/api/v1/ingest`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: batch });
    if (ingest.status !== 429 || i >= 20) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (!ingest.ok) throw new Error(`seed failed: ${ingest.status} ${await ingest.text()}`);
  return {
    url,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const gz = (text: string | Buffer) => gzipSync(text, { level: 9 }).length;

/** The gzip bytes of the scripts a page loads on first paint (chunks counted once per page). */
async function firstLoad(url: string, page: string): Promise<{ status: number; bytes: number; files: number }> {
  const res = await fetch(url + page);
  const html = await res.text();
  // Legacy-browser polyfills (`nomodule`) never load in a browser that runs the app.
  const tags = [...html.matchAll(/<script([^>]*)\ssrc="([^"]+)"([^>]*)>/g)].filter((m) => !/\bnomodule\b/i.test(m[1]! + m[3]!));
  const srcs = new Set(tags.map((m) => m[2]!.replace(/&amp;/g, "&")));
  let bytes = 0;
  for (const src of srcs) {
    const size = gz(Buffer.from(await (await fetch(new URL(src, url))).arrayBuffer()));
    if (process.argv.includes("--files")) console.log(`  ${page} ${src} ${(size / KB).toFixed(1)} KB`);
    bytes += size;
  }
  return { status: res.status, bytes, files: srcs.size };
}

async function main() {
  const json = process.argv.includes("--json");
  const app = await startApp();
  try {
    const rows = [];
    for (const p of PAGES) {
      const r = await firstLoad(app.url, p.path);
      const target = p.charts ? TARGET_CHARTS : TARGET_PLAIN;
      rows.push({ page: p.path, status: r.status, files: r.files, kb: Math.round((r.bytes / KB) * 10) / 10, targetKb: target / KB, ok: r.bytes <= target });
    }
    if (json) console.log(JSON.stringify(rows, null, 2));
    else {
      console.log("first-load JS per page (gzip)");
      for (const r of rows) {
        console.log(`${r.ok ? "ok  " : "OVER"} ${r.page.padEnd(30)} ${String(r.kb).padStart(7)} KB  (target ≤ ${r.targetKb} KB, ${r.files} files, HTTP ${r.status})`);
      }
    }
    if (rows.some((r) => !r.ok)) process.exitCode = 1;
  } finally {
    await app.stop();
  }
}

await main();
