import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { listRuns } from "@/db/queries/list-runs";
import { emptyRowBatch } from "@/lib/ingest/rows";
import { listRunsQuerySchema, RUNS_MATCHED_MAX } from "@/lib/contracts/runs";
import { spanRow } from "../../helpers/rows";
import { DIALECTS, openTestStore } from "../../helpers/stores";

// The runs list filters a busy tool or code by walking runs newest first, a rare one by collecting
// its runs first (db/queries/list-runs.ts). Both plans must give the same answer: a busy tool with
// more runs than the switch-over count and a rare one, interleaved in time.
const T = Date.UTC(2026, 10, 1);
const BUSY_RUNS = 20_500;
const RARE_EVERY = 4_000;

const run = (n: number) => `run-${String(n).padStart(6, "0")}`;

/** Run n: one span of `busy_tool` (failing with `busy_code` but on every 41st run: 20,000 runs) and, every RARE_EVERY runs, one of `rare_tool`. */
async function seed(store: Store, project: string): Promise<void> {
  for (let start = 0; start < BUSY_RUNS; start += 5000) {
    const batch = emptyRowBatch();
    for (let n = start; n < Math.min(BUSY_RUNS, start + 5000); n++) {
      const runId = `run-${String(n).padStart(6, "0")}`;
      const at = T + n * 1000;
      const failed = n % 41 !== 0;
      batch.spans.push({
        index: batch.spans.length,
        row: spanRow({ spanId: `${runId}-a`, runId, callId: `${runId}-c1`, tool: "busy_tool", attempt: 1, startedAt: at, endedAt: at + 10, ...(failed ? { outcome: "failed", code: "busy_code", errorClass: "ToolFailure", retryable: true } : {}) }),
      });
      // Every tenth run's first call ended in a final error: 2,050 runs, between rare and busy.
      if (n % 10 === 5) {
        batch.toolErrors.push({
          index: batch.toolErrors.length,
          row: {
            eventId: `${runId}-mid`, runId, callId: `${runId}-c1`, tool: "busy_tool", toolVersion: null, release: null, service: null, environment: null,
            code: "mid_code", errorClass: "ToolFailure", retryable: false, attempts: 1, decision: "surfaced", told: "mid", derived: null, occurredAt: at + 15,
            source: "native", experiment: null, variant: null,
          },
        });
      }
      if (n % RARE_EVERY === 0) {
        batch.spans.push({
          index: batch.spans.length,
          row: spanRow({ spanId: `${runId}-b`, runId, callId: `${runId}-c2`, tool: "rare_tool", attempt: 1, startedAt: at + 20, endedAt: at + 30, outcome: "declined", code: "rare_code", errorClass: "ToolRefusal", retryable: false }),
        });
      }
    }
    await writeRows(store, project, batch);
  }
  // Run 7's second call failed with a code only its final error carries (its spans have none).
  const batch = emptyRowBatch();
  batch.toolErrors.push({
    index: 0,
    row: {
      eventId: "run-000007-err", runId: run(7), callId: "run-000007-c2", tool: "busy_tool", toolVersion: null, release: null, service: null, environment: null,
      code: "error_only_code", errorClass: "ToolFailure", retryable: false, attempts: 1, decision: "surfaced", told: "no", derived: null, occurredAt: T + 7000 + 50,
      source: "native", experiment: null, variant: null,
    },
  });
  await writeRows(store, project, batch);
}

const ids = (runs: { runId: string }[]) => runs.map((r) => r.runId);

describe.each(DIALECTS)("runs list filters on %s", (dialect) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "p");
    await seed(store, "p");
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });
  const list = (q: Record<string, string | number>) => listRuns(store, listRunsQuerySchema.parse({ project: "p", limit: 5, ...q }));

  it("a busy tool: the newest runs first, and the next page continues without a gap", async () => {
    const first = await list({ tool: "busy" });
    expect(ids(first.runs)).toEqual([20499, 20498, 20497, 20496, 20495].map(run));
    const second = await list({ tool: "busy", cursor: first.nextCursor! });
    expect(ids(second.runs)).toEqual([20494, 20493, 20492, 20491, 20490].map(run));
  });

  it("a rare tool: exactly its runs", async () => {
    const page = await list({ tool: "RARE", limit: 50 });
    expect(ids(page.runs)).toEqual([20000, 16000, 12000, 8000, 4000, 0].map(run));
    expect(page.nextCursor).toBeNull();
  });

  it("a busy code, a rare code, and a code with a tool", async () => {
    expect(ids((await list({ code: "busy_code" })).runs)).toEqual([20499, 20498, 20497, 20496, 20495].map(run));
    expect(ids((await list({ code: "busy_code", sort: "start", dir: "asc" })).runs)).toEqual([1, 2, 3, 4, 5].map(run));
    const rare = await list({ code: "rare", limit: 50 });
    expect(ids(rare.runs)).toEqual([20000, 16000, 12000, 8000, 4000, 0].map(run));
    // How many matched: counted exactly up to the bound, "more than" beyond it (20,000 busy runs).
    expect([rare.matched, rare.matchedCapped]).toEqual([6, false]);
    const busy = await list({ code: "busy_code" });
    expect([busy.matched, busy.matchedCapped]).toEqual([RUNS_MATCHED_MAX, true]);
    expect(ids((await list({ code: "busy_code", tool: "rare_tool", limit: 50 })).runs)).toEqual([]);
    expect(ids((await list({ code: "busy", tool: "busy", sort: "start", dir: "asc", from: T + 40_000 })).runs)).toEqual([40, 42, 43, 44, 45].map(run));
  });

  it("a code only a final error carries, several codes at once, and how many runs each filter matched", async () => {
    const errorOnly = await list({ code: "error_only" });
    expect([ids(errorOnly.runs), errorOnly.matched, errorOnly.matchedCapped]).toEqual([[run(7)], 1, false]);
    // "code" names all four codes: the busy one makes it common, walked newest first.
    const all = await list({ code: "CODE" });
    expect([ids(all.runs), all.matched, all.matchedCapped]).toEqual([[20499, 20498, 20497, 20496, 20495].map(run), RUNS_MATCHED_MAX, true]);
    const mid = await list({ code: "mid_code" });
    expect([ids(mid.runs), mid.matched, mid.matchedCapped]).toEqual([[20495, 20485, 20475, 20465, 20455].map(run), RUNS_MATCHED_MAX, true]);
    const midEarly = await list({ code: "mid_code", to: T + 100_000, sort: "start", dir: "asc" });
    expect([ids(midEarly.runs), midEarly.matched]).toEqual([[5, 15, 25, 35, 45].map(run), 10]);
    const rareSince = await list({ code: "rare", from: T + 5_000_000, limit: 50 });
    expect([ids(rareSince.runs), rareSince.matched]).toEqual([[20000, 16000, 12000, 8000].map(run), 4]);
    const busyTool = await list({ tool: "busy_tool" });
    expect([busyTool.matched, busyTool.matchedCapped]).toEqual([RUNS_MATCHED_MAX, true]);
    const rareTool = await list({ tool: "rare" });
    expect([rareTool.matched, rareTool.matchedCapped]).toEqual([6, false]);
    // The busy code's runs but one in 41 (whose only span succeeded), within the bound.
    const early = await list({ code: "busy_code", to: T + 1_000_000 });
    expect([early.matched, early.matchedCapped]).toEqual([1000 - 25, false]);
  });
});
