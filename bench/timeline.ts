// `FAULTLINE_DIST_DIR=.next-runs npx tsx bench/timeline.ts` — seeds one run of 1,000 tool calls with
// 12 attempts each (12,000 spans, parallel calls), starts the built server, and reports:
//  - API latency of GET /api/v1/runs/<id> (median and p95 of 20 requests, answer size);
//  - in Chromium, median of 5 cold loads of /runs/<id>: time from navigation start to the first lane
//    in the DOM and painted, and to the chart being hydrated (interactive).
// Needs a build into the same dist dir.
import type { Store } from "../db/client";
import type { RunRow, SpanRow, ToolErrorRow } from "../lib/ingest/rows";
import { writeRows } from "../db/ingest/write-rows";
import { launchBrowser } from "../test/helpers/browser";
import { startServer } from "../test/helpers/server";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const ATTEMPTS = 12;
const LOADS = 5;
const RUN_ID = `bench-run-${CALLS}x12`;
const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);
const TOOLS = ["search_flights", "cancel_booking", "lookup_customer", "charge_card", "fetch_weather", "send_email", "refund_payment", "get_itinerary"];

async function seed(store: Store): Promise<void> {
  const spans: SpanRow[] = [];
  const errors: ToolErrorRow[] = [];
  for (let c = 0; c < CALLS; c++) {
    const tool = TOOLS[c % TOOLS.length]!;
    // About eight calls in flight at once: starts 150 ms apart, each call ~1.5–4 s long.
    let t = T0 + c * 150;
    for (let a = 1; a <= ATTEMPTS; a++) {
      const last = a === ATTEMPTS;
      const ok = last && c % 3 !== 0;
      const duration = 40 + ((c * 31 + a * 17) % 200);
      const backoff = last ? null : 50 + ((c + a * 13) % 250);
      spans.push({
        spanId: `b-${c}-${a}`, traceId: "bench", parentSpanId: null, runId: RUN_ID, callId: `call-${c}`, tool,
        toolVersion: "1.0.0", release: "2026.11.3", service: "bench-agent", environment: "bench", sdkName: "faultline-runtime",
        sdkVersion: "0.1.0", attempt: a, startedAt: t, startedSubNs: null, endedAt: t + duration, outcome: ok ? "ok" : a % 4 === 0 ? "timed_out" : "failed",
        code: ok ? null : "upstream_unavailable", errorClass: ok ? null : "ToolFailure", retryable: ok ? null : true,
        retryAfterMs: ok || a % 3 !== 0 ? null : backoff, backoffMs: backoff, decision: ok ? null : last ? "exhausted" : "retried",
        permitted: true, abandoned: false, message: null, derived: null, argsHash: null, afterError: null, source: "native",
      });
      t += duration + (backoff ?? 0);
    }
    if (c % 3 === 0) {
      errors.push({
        eventId: `b-err-${c}`, runId: RUN_ID, callId: `call-${c}`, tool, toolVersion: "1.0.0", release: "2026.11.3",
        service: "bench-agent", environment: "bench", code: "upstream_unavailable", errorClass: "ToolFailure", retryable: true,
        attempts: ATTEMPTS, decision: "exhausted", told: "upstream_unavailable: gave up after 12 attempts", derived: null, occurredAt: t, source: "native", experiment: null, variant: null,
      });
    }
  }
  const run: RunRow = {
    recordId: `${RUN_ID}-rec`, runId: RUN_ID, agent: "bench-agent", release: "2026.11.3", service: "bench-agent", environment: "bench",
    sdkName: "faultline-runtime", sdkVersion: "0.1.0", startedAt: T0, endedAt: T0 + CALLS * 150 + 5000, state: "failed",
    deadlineAt: T0 + CALLS * 150 + 10_000, maxToolAttempts: 2000, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "native",
  };
  await writeRows(store, "default", {
    runs: [{ index: 0, row: run }],
    spans: spans.map((row, index) => ({ index, row })),
    toolErrors: errors.map((row, index) => ({ index, row })),
  });
}

const FIRST_LANE_PROBE = `
  new MutationObserver(function (_, obs) {
    if (document.querySelector('[data-testid="call-lane"]')) {
      obs.disconnect();
      requestAnimationFrame(function () { window.__firstLane = performance.now(); });
    }
  }).observe(document, { childList: true, subtree: true });
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
  const server = await startServer({ seed });
  const browser = await launchBrowser();
  try {
    const api = `${server.url}/api/v1/runs/${RUN_ID}`;
    let bytes = 0;
    await (await fetch(api)).arrayBuffer(); // warm the route
    const apiTimes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const body = await (await fetch(api)).arrayBuffer();
      apiTimes.push(performance.now() - t);
      bytes = body.byteLength;
    }
    console.log(`API GET /api/v1/runs/<id> (${CALLS} calls x ${ATTEMPTS} attempts): median ${fmt(median(apiTimes))}, p95 ${fmt(p95(apiTimes))}, ${(bytes / 1024).toFixed(0)} KiB`);

    // One warm-up load so that the server has compiled nothing lazily; then cold browser contexts.
    const warm = await browser.newPage();
    await warm.goto(`${server.url}/runs/${RUN_ID}`);
    await warm.close();
    const lane: number[] = [];
    const hydrated: number[] = [];
    const firstByte: number[] = [];
    const htmlEnd: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      // Records, relative to navigation start, when the first lane enters the DOM and gets painted.
      // A string, not a function: tsx's name-keeping helpers do not exist inside the page.
      await page.addInitScript(FIRST_LANE_PROBE);
      await page.goto(`${server.url}/runs/${RUN_ID}`);
      await page.waitForFunction(() => (window as unknown as { __firstLane?: number }).__firstLane !== undefined);
      await page.waitForSelector('[data-testid="timeline"][data-hydrated="true"]');
      // The hydration mark is set in an effect; the next frame is when the user can act.
      const [first, ready, ttfb, htmlDone] = (await page.evaluate(
        `new Promise((resolve) => requestAnimationFrame(() => {
          const nav = performance.getEntriesByType("navigation")[0];
          resolve([window.__firstLane, performance.now(), nav.responseStart, nav.responseEnd]);
        }))`,
      )) as [number, number, number, number];
      firstByte.push(ttfb);
      htmlEnd.push(htmlDone);
      lane.push(first);
      hydrated.push(ready);
      const lanes = await page.locator('[data-testid="call-lane"]').count();
      if (i === 0) console.log(`lanes in the DOM (virtualised): ${lanes} of ${CALLS}`);
      await context.close();
    }
    console.log(`HTML first byte: median ${fmt(median(firstByte))}; HTML fully received: median ${fmt(median(htmlEnd))}`);
    console.log(`first lane visible: median ${fmt(median(lane))} over ${LOADS} loads [${lane.map((x) => x.toFixed(0)).join(", ")}]`);
    console.log(`hydrated (interactive): median ${fmt(median(hydrated))} over ${LOADS} loads [${hydrated.map((x) => x.toFixed(0)).join(", ")}]`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
