import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PgStore, Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { ensureDefaultProject } from "@/db/keys";
import { ensurePartitions } from "@/db/partitions";
import { getRunTimeline } from "@/db/queries/get-run-timeline";
import { listRuns } from "@/db/queries/list-runs";
import { listRunsQuerySchema } from "@/lib/contracts/runs";
import type { RunRow, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { runRow, spanRow } from "../../helpers/rows";

// On PostgreSQL the run page and the runs list bound their span and error reads by the run's counters
// (run_stats), so that they touch only the daily partitions of the run's days. A run across midnight,
// whose record's clock disagrees with its spans, with a span that arrives later and earlier than the
// rest, and a call known only from a final error after its last span: every row must still be read.
const MIDNIGHT = Date.UTC(2026, 10, 2);
const RUN = "run-across-midnight";

const span = (callId: string, attempt: number, from: number, to: number): SpanRow =>
  spanRow({ spanId: `${callId}-${attempt}`, runId: RUN, callId, tool: "search", attempt, startedAt: MIDNIGHT + from, endedAt: MIDNIGHT + to });

const lostError: ToolErrorRow = {
  eventId: "lost-err", runId: RUN, callId: "lost", tool: "search", toolVersion: "1.0.0", release: null, service: null, environment: "prod",
  code: "upstream_timeout", errorClass: "ToolTimedOutError", retryable: true, attempts: 1, decision: "surfaced", told: "timed out", derived: null,
  occurredAt: MIDNIGHT + 600_000, source: "native", experiment: null, variant: null,
};

// The record says the run started after midnight and ended before its last span.
const record: RunRow = runRow({ runId: RUN, startedAt: MIDNIGHT + 1_000, endedAt: MIDNIGHT + 3_000, state: "completed" });

describe.each(DIALECTS)("a run across midnight, read day by day (%s)", (dialect) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
    // Each day in its own partition, as on a running node.
    if (store.dialect === "postgres") await ensurePartitions(store as PgStore, MIDNIGHT, 2, 2);
    const first = [span("c1", 1, -2_000, -1_500), span("c1", 2, 1_000, 1_200), span("c2", 1, 5_000, 5_400)];
    await writeRows(store, "default", {
      runs: [{ index: 0, row: record }],
      spans: first.map((row, index) => ({ index, row })),
      toolErrors: [{ index: 0, row: lostError }],
    }, MIDNIGHT + 700_000);
    // A late batch: one span an hour before all the others, one after them.
    const late = [span("c0", 1, -3_600_000, -3_599_000), span("c3", 1, 9_000, 9_100)];
    await writeRows(store, "default", { runs: [], toolErrors: [], spans: late.map((row, index) => ({ index, row })) }, MIDNIGHT + 800_000);
  });
  afterAll(async () => {
    await store.close();
  });

  it("the run page reads every span and final error, whole and page by page", async () => {
    const whole = (await getRunTimeline(store, "default", RUN, { limit: 1000 }))!;
    expect(whole.calls.map((c) => [c.callId, c.attempts.map((a) => a[0]), c.error?.code ?? null])).toEqual([
      ["c0", ["c0-1"], null],
      ["c1", ["c1-1", "c1-2"], null],
      ["c2", ["c2-1"], null],
      ["c3", ["c3-1"], null],
      ["lost", [], "upstream_timeout"],
    ]);
    expect(whole.t0).toBe(MIDNIGHT - 3_600_000);
    const spanIds: string[] = [];
    let page = (await getRunTimeline(store, "default", RUN, { limit: 2 }))!;
    expect(page.page).toEqual({ next: expect.any(String), totalAttempts: 5, totalCalls: 5 });
    for (;;) {
      spanIds.push(...page.calls.flatMap((c) => c.attempts.map((a) => a[0])));
      if (page.page.next === null) break;
      page = (await getRunTimeline(store, "default", RUN, { limit: 2, after: page.page.next }))!;
    }
    expect(spanIds).toEqual(["c0-1", "c1-1", "c1-2", "c2-1", "c3-1"]);
    expect(page.calls.map((c) => c.callId)).toEqual(["c3", "lost"]);
  });

  it("the runs list counts the run's calls across both days", async () => {
    const list = await listRuns(store, listRunsQuerySchema.parse({}));
    expect(list.runs.map((r) => [r.runId, r.toolCalls, r.attempts])).toEqual([[RUN, 4, 5]]);
  });
});
