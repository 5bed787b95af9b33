import { describe, expect, it } from "vitest";
import type { RollupRow } from "@/db/rollups/define-rollup";
import { HOUR_MS, SIX_HOURS_MS } from "@/db/rollups/periods";
import { RollupBatch } from "@/db/rollups/rollup-batch";
import { attemptCounts } from "@/db/schema/attempt-counts";
import { runStatsRollup } from "@/db/schema/run-stats";

type RunStatsRow = RollupRow<typeof runStatsRollup>;
const stats = (over: Partial<RunStatsRow>): RunStatsRow => ({
  projectId: "p", runId: "run", attempts: 1, calls: 0, retries: 0, failedAttempts: 0, declined: 0, refused: 0, errors: 0,
  firstStartedAt: 1000, lastEndedAt: 1100, agent: "", release: "", ...over,
});

describe("RollupBatch", () => {
  it("merges rows with the same key field by field, each with its declared rule", () => {
    const batch = new RollupBatch(runStatsRollup);
    batch.add(stats({ calls: 1 }));
    batch.add(stats({ retries: 1, firstStartedAt: 2000, lastEndedAt: 2100 }));
    batch.add(stats({ attempts: 0, errors: 1, firstStartedAt: 500, lastEndedAt: 600 }));
    batch.add(stats({ runId: "other" }));
    expect([...batch.rowsFor(runStatsRollup.tableList[0]!)]).toEqual([
      stats({ attempts: 2, calls: 1, retries: 1, errors: 1, firstStartedAt: 500, lastEndedAt: 2100 }),
      stats({ runId: "other" }),
    ]);
  });

  it("coarsens by the declared period key into the coarser table, merging the hours that meet", () => {
    const batch = new RollupBatch(attemptCounts);
    const row = (hour: number, attempt: number) => ({ projectId: "p", hour, tool: "t", release: "r", service: "s", environment: "", attempt, spans: 1 });
    batch.add(row(6 * HOUR_MS, 1));
    batch.add(row(7 * HOUR_MS, 1));
    batch.add(row(7 * HOUR_MS, 1));
    batch.add(row(13 * HOUR_MS, 1));
    batch.add(row(13 * HOUR_MS, 2));
    const [hourly, sixHourly] = attemptCounts.tableList.map((t) => ({ periodMs: t.periodMs, rows: [...batch.rowsFor(t)].map((r) => [r.hour / HOUR_MS, r.attempt, r.spans]) }));
    expect(hourly).toEqual({ periodMs: HOUR_MS, rows: [[6, 1, 1], [7, 1, 2], [13, 1, 1], [13, 2, 1]] });
    expect(sixHourly).toEqual({ periodMs: SIX_HOURS_MS, rows: [[6, 1, 3], [12, 1, 1], [12, 2, 1]] });
  });

  it("types rows from the declaration", () => {
    const batch = new RollupBatch(attemptCounts);
    const ok = { projectId: "p", hour: 0, tool: "t", release: "r", service: "s", environment: "", attempt: 1, spans: 1 };
    batch.add({ ...ok });
    // @ts-expect-error a value column of the declaration is missing
    batch.add({ projectId: "p", hour: 0, tool: "t", release: "r", service: "s", environment: "", attempt: 1 });
    // @ts-expect-error a key column has the wrong type
    batch.add({ ...ok, hour: 1, attempt: "1" });
    // @ts-expect-error no such column in the declaration
    const wrong: RollupRow<typeof attemptCounts> = { ...ok, attempts: 1 };
    expect(wrong.spans).toBe(1);
  });
});
