import { beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { ingestNativeBatch } from "../helpers/ingest";
import { ensureDefaultProject } from "@/db/keys";
import { pruneExpiredRuns, pruneRollups } from "@/db/retention/prune-expired";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 1, 12);
let store: Store;

const n = (sql: string) => (store.sqlite.prepare(sql).get() as { n: number }).n;
const rows = (sql: string) => store.sqlite.prepare(sql).all();

function seedRun(runId: string, startedAt: number, spans: number) {
  ingestNativeBatch(store, "default", { release: "1.0.0" }, [
    { type: "run", id: `rec-${runId}`, run_id: runId, agent: "a", started_at: startedAt, ended_at: startedAt + 5000, state: "completed" },
    ...Array.from({ length: spans }, (_, i) => ({
      type: "tool_call_span", id: `${runId}-s${i}`, run_id: runId, call_id: `${runId}-c${i}`, tool: "search", attempt: 1,
      started_at: startedAt + i, ended_at: startedAt + i + 10, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", retryable: true,
    })),
    { type: "tool_error", id: `${runId}-e`, run_id: runId, call_id: `${runId}-c0`, tool: "search", code: "upstream_unavailable", error_class: "ToolFailure", retryable: true, attempts: 1, decision: "surfaced", told: "x", occurred_at: startedAt + 100 },
  ]);
}

beforeEach(() => {
  store = openStore(":memory:");
  ensureDefaultProject(store);
  // Timestamps in the past beyond the contract's "not before 2000" bound only.
  seedRun("old-1", NOW - 40 * DAY, 3);
  seedRun("old-2", NOW - 31 * DAY, 2);
  seedRun("recent", NOW - 2 * DAY, 4);
});

describe("retention", () => {
  it("deletes whole runs older than the cutoff and keeps the rollups", () => {
    const rollupSpans = n("SELECT sum(spans) AS n FROM span_rollups_hourly");
    const policy = { rawCutoffMs: NOW - 30 * DAY, maxSpans: 1_000_000, rollupCutoffMs: NOW - 400 * DAY };
    expect(pruneExpiredRuns(store, policy)).toEqual({ runs: 2, spans: 5, toolErrors: 2 });
    expect(pruneExpiredRuns(store, policy)).toEqual({ runs: 0, spans: 0, toolErrors: 0 });
    expect(rows("SELECT DISTINCT run_id FROM tool_call_spans")).toEqual([{ run_id: "recent" }]);
    for (const table of ["runs", "run_stats", "run_tools", "tool_errors"]) {
      expect(rows(`SELECT DISTINCT run_id FROM ${table}`)).toEqual([{ run_id: "recent" }]);
    }
    expect(n("SELECT sum(spans) AS n FROM span_rollups_hourly")).toBe(rollupSpans);
  });

  it("deletes the oldest runs while more spans are stored than allowed", () => {
    const policy = { rawCutoffMs: NOW - 365 * DAY, maxSpans: 5, rollupCutoffMs: NOW - 400 * DAY };
    expect(pruneExpiredRuns(store, policy).runs).toBeGreaterThan(0);
    while (pruneExpiredRuns(store, policy).runs > 0);
    expect(rows("SELECT DISTINCT run_id FROM tool_call_spans ORDER BY run_id")).toEqual([{ run_id: "recent" }]);
  });

  it("deletes rollup periods older than the rollup cutoff", () => {
    const deleted = pruneRollups(store, { rawCutoffMs: 0, maxSpans: 1e9, rollupCutoffMs: NOW - 35 * DAY });
    expect(deleted).toBeGreaterThan(0);
    expect(n("SELECT count(*) AS n FROM span_rollups_hourly WHERE hour < " + (NOW - 35 * DAY))).toBe(0);
    expect(n("SELECT sum(spans) AS n FROM span_rollups_hourly")).toBe(6);
    expect(n("SELECT sum(spans) AS n FROM span_rollups_6h")).toBe(6);
  });
});
