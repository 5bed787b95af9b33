import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { pruneExpiredRuns, pruneRollups } from "@/db/retention/prune-expired";
import { ingestNativeBatch } from "../helpers/ingest";
import { DIALECTS, openTestStore } from "../helpers/stores";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 1, 12);

describe.each(DIALECTS)("retention (%s)", (dialect) => {
  let store: Store;
  const n = async (sql: string) => (await store.get<{ n: number | null }>(sql))?.n ?? null;
  const rows = (sql: string) => store.all(sql);

  async function seedRun(runId: string, startedAt: number, spans: number) {
    await ingestNativeBatch(store, "default", { release: "1.0.0" }, [
      { type: "run", id: `rec-${runId}`, run_id: runId, agent: "a", started_at: startedAt, ended_at: startedAt + 5000, state: "completed" },
      ...Array.from({ length: spans }, (_, i) => ({
        type: "tool_call_span", id: `${runId}-s${i}`, run_id: runId, call_id: `${runId}-c${i}`, tool: "search", attempt: 1,
        started_at: startedAt + i, ended_at: startedAt + i + 10, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", retryable: true,
      })),
      { type: "tool_error", id: `${runId}-e`, run_id: runId, call_id: `${runId}-c0`, tool: "search", code: "upstream_unavailable", error_class: "ToolFailure", retryable: true, attempts: 1, decision: "surfaced", told: "x", occurred_at: startedAt + 100 },
    ]);
  }

  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
    // Timestamps in the past beyond the contract's "not before 2000" bound only.
    await seedRun("old-1", NOW - 40 * DAY, 3);
    await seedRun("old-2", NOW - 31 * DAY, 2);
    await seedRun("recent", NOW - 2 * DAY, 4);
  });
  afterEach(async () => {
    await store.close();
  });

  it("deletes whole runs older than the cutoff, told steps included, and keeps the rollups and told counts", async () => {
    const rollupSpans = await n("SELECT sum(spans) AS n FROM span_rollups_hourly");
    expect(await rows("SELECT run_id, step FROM told_steps ORDER BY run_id")).toEqual([
      { run_id: "old-1", step: "gave_up" },
      { run_id: "old-2", step: "gave_up" },
      { run_id: "recent", step: "gave_up" },
    ]);
    const policy = { rawCutoffMs: NOW - 30 * DAY, maxSpans: 1_000_000, rollupCutoffMs: NOW - 400 * DAY };
    expect(await pruneExpiredRuns(store, policy)).toEqual({ runs: 2, spans: 5, toolErrors: 2 });
    expect(await pruneExpiredRuns(store, policy)).toEqual({ runs: 0, spans: 0, toolErrors: 0 });
    expect(await rows("SELECT DISTINCT run_id FROM tool_call_spans")).toEqual([{ run_id: "recent" }]);
    for (const table of ["runs", "run_stats", "run_tools", "run_codes", "tool_errors", "told_steps"]) {
      expect(await rows(`SELECT DISTINCT run_id FROM ${table}`)).toEqual([{ run_id: "recent" }]);
    }
    expect(await n("SELECT sum(spans) AS n FROM span_rollups_hourly")).toBe(rollupSpans);
    expect(await n("SELECT sum(errors) AS n FROM told_step_counts WHERE step = 'gave_up'")).toBe(3);
  });

  it("deletes the oldest runs while more spans are stored than allowed", async () => {
    const policy = { rawCutoffMs: NOW - 365 * DAY, maxSpans: 5, rollupCutoffMs: NOW - 400 * DAY };
    expect((await pruneExpiredRuns(store, policy)).runs).toBeGreaterThan(0);
    while ((await pruneExpiredRuns(store, policy)).runs > 0);
    expect(await rows("SELECT DISTINCT run_id FROM tool_call_spans ORDER BY run_id")).toEqual([{ run_id: "recent" }]);
  });

  it("deletes rollup periods older than the rollup cutoff", async () => {
    const deleted = await pruneRollups(store, { rawCutoffMs: 0, maxSpans: 1e9, rollupCutoffMs: NOW - 35 * DAY });
    expect(deleted).toBeGreaterThan(0);
    expect(await n(`SELECT count(*) AS n FROM span_rollups_hourly WHERE hour < ${NOW - 35 * DAY}`)).toBe(0);
    expect(await n("SELECT sum(spans) AS n FROM span_rollups_hourly")).toBe(6);
    expect(await n("SELECT sum(spans) AS n FROM span_rollups_6h")).toBe(6);
  });
});
