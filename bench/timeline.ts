// `npx tsx bench/timeline.ts` — the run page at size against the same page for a small run, measured in
// the same run, interleaved. Seeds one run of 1,000 tool calls with 12 attempts each (12,000 spans,
// parallel calls) and a baseline run of 10 calls of the same shape, starts the built server, and reports
// each figure for the big run, the baseline, and their ratio per round (median, min–max):
//  - API latency of GET /api/v1/runs/<id> (ROUNDS interleaved pairs of requests) and answer size;
//  - in Chromium, LOADS interleaved pairs of cold loads of /runs/<id> (a fresh context each): time from
//    navigation start to the HTML's first byte, the first lane in the DOM and painted, and the chart
//    hydrated (interactive).
// Needs a build (FAULTLINE_DIST_DIR honoured). BENCH_CALLS changes the big run's calls.
import type { Browser } from "playwright-core";
import type { Store } from "../db/client";
import type { RunRow, SpanRow, ToolErrorRow } from "../lib/ingest/rows";
import { writeRows } from "../db/ingest/write-rows";
import { launchBrowser } from "../test/helpers/browser";
import { startServer } from "../test/helpers/server";
import { median, spread } from "./ingest-common";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const BASE_CALLS = 10;
const ATTEMPTS = 12;
const ROUNDS = 20;
const LOADS = 5;
const BIG = `bench-run-${CALLS}x12`;
const BASE = `bench-run-${BASE_CALLS}x12`;
// Within the last hour: the server's retention job deletes runs older than its window (30 days by
// default) as soon as it starts, and a run seeded at a fixed date was gone by the second page load.
const T0 = Date.now() - 3_600_000;
const TOOLS = ["search_flights", "cancel_booking", "lookup_customer", "charge_card", "fetch_weather", "send_email", "refund_payment", "get_itinerary"];

/** One run of `calls` tool calls, 12 attempts each, about eight calls in flight at once; ids start with `idPrefix`. */
async function seedRun(store: Store, runId: string, calls: number, idPrefix: string): Promise<void> {
  const spans: SpanRow[] = [];
  const errors: ToolErrorRow[] = [];
  for (let c = 0; c < calls; c++) {
    const tool = TOOLS[c % TOOLS.length]!;
    // Starts 150 ms apart, each call ~1.5–4 s long.
    let t = T0 + c * 150;
    for (let a = 1; a <= ATTEMPTS; a++) {
      const last = a === ATTEMPTS;
      const ok = last && c % 3 !== 0;
      const duration = 40 + ((c * 31 + a * 17) % 200);
      const backoff = last ? null : 50 + ((c + a * 13) % 250);
      spans.push({
        spanId: `${idPrefix}-${c}-${a}`, traceId: "bench", parentSpanId: null, runId, callId: `call-${c}`, tool,
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
        eventId: `${idPrefix}-err-${c}`, runId, callId: `call-${c}`, tool, toolVersion: "1.0.0", release: "2026.11.3",
        service: "bench-agent", environment: "bench", code: "upstream_unavailable", errorClass: "ToolFailure", retryable: true,
        attempts: ATTEMPTS, decision: "exhausted", told: "upstream_unavailable: gave up after 12 attempts", derived: null, occurredAt: t, source: "native", experiment: null, variant: null,
      });
    }
  }
  const run: RunRow = {
    recordId: `${runId}-rec`, runId, agent: "bench-agent", release: "2026.11.3", service: "bench-agent", environment: "bench",
    sdkName: "faultline-runtime", sdkVersion: "0.1.0", startedAt: T0, endedAt: T0 + calls * 150 + 5000, state: "failed",
    deadlineAt: T0 + calls * 150 + 10_000, maxToolAttempts: 2000, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "native",
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

interface Load {
  firstByte: number;
  firstLane: number;
  hydrated: number;
  lanes: number;
}

/** One cold load of a run page in a fresh browser context; throws when the page does not answer 200. */
async function coldLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    // Records, relative to navigation start, when the first lane enters the DOM and gets painted.
    // A string, not a function: tsx's name-keeping helpers do not exist inside the page.
    await page.addInitScript(FIRST_LANE_PROBE);
    const response = await page.goto(url);
    if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status() ?? "nothing"}`);
    await page.waitForFunction(() => (window as unknown as { __firstLane?: number }).__firstLane !== undefined);
    await page.waitForSelector('[data-testid="timeline"][data-hydrated="true"]');
    // The hydration mark is set in an effect; the next frame is when the user can act.
    const [firstLane, hydrated, firstByte] = (await page.evaluate(
      `new Promise((resolve) => requestAnimationFrame(() => {
        resolve([window.__firstLane, performance.now(), performance.getEntriesByType("navigation")[0].responseStart]);
      }))`,
    )) as [number, number, number];
    return { firstByte, firstLane, hydrated, lanes: await page.locator('[data-testid="call-lane"]').count() };
  } finally {
    await context.close();
  }
}

/** Big and baseline figures of interleaved rounds, printed as each side's median and their ratio per round. */
function report(label: string, big: number[], base: number[], unit = "ms"): void {
  const ratios = big.map((b, i) => b / base[i]!);
  console.log(
    `${label.padEnd(34)} ${CALLS} calls ${median(big).toFixed(1).padStart(7)} ${unit}, ${BASE_CALLS} calls ${median(base).toFixed(1).padStart(6)} ${unit}: ratio ${spread(ratios, 2)}`,
  );
}

async function main(): Promise<void> {
  const server = await startServer({
    seed: async (store) => {
      await seedRun(store, BIG, CALLS, "b");
      await seedRun(store, BASE, BASE_CALLS, "s");
    },
  });
  const browser = await launchBrowser();
  try {
    const api = (run: string) => `${server.url}/api/v1/runs/${run}`;
    const timeGet = async (url: string) => {
      const t = performance.now();
      const res = await fetch(url);
      const body = await res.arrayBuffer();
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      return { ms: performance.now() - t, bytes: body.byteLength };
    };
    // Warm both routes, then alternate which run goes first, so neither always follows the other.
    const sizes = { big: (await timeGet(api(BIG))).bytes, base: (await timeGet(api(BASE))).bytes };
    const apiBig: number[] = [];
    const apiBase: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? [BIG, BASE] : [BASE, BIG];
      for (const run of order) (run === BIG ? apiBig : apiBase).push((await timeGet(api(run))).ms);
    }
    console.log(`median, and the ratio ${CALLS}-call / ${BASE_CALLS}-call run per interleaved round: median (min–max)`);
    console.log(`API answer size: ${(sizes.big / 1024).toFixed(0)} KiB against ${(sizes.base / 1024).toFixed(1)} KiB`);
    report(`API GET /api/v1/runs/<id> (${ROUNDS})`, apiBig, apiBase);

    // One warm-up load of each page so that the server has compiled nothing lazily; then cold contexts.
    await coldLoad(browser, `${server.url}/runs/${BASE}`);
    await coldLoad(browser, `${server.url}/runs/${BIG}`);
    const big: Load[] = [];
    const base: Load[] = [];
    for (let i = 0; i < LOADS; i++) {
      const order = i % 2 === 0 ? [BIG, BASE] : [BASE, BIG];
      for (const run of order) (run === BIG ? big : base).push(await coldLoad(browser, `${server.url}/runs/${run}`));
    }
    console.log(`lanes in the DOM (virtualised): ${big[0]!.lanes} of ${CALLS}; ${base[0]!.lanes} of ${BASE_CALLS}`);
    report(`HTML first byte (${LOADS} cold loads)`, big.map((l) => l.firstByte), base.map((l) => l.firstByte));
    report(`first lane painted (${LOADS})`, big.map((l) => l.firstLane), base.map((l) => l.firstLane));
    report(`hydrated, interactive (${LOADS})`, big.map((l) => l.hydrated), base.map((l) => l.hydrated));
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
