import { getTableName } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import type { AnyRollup } from "@/db/rollups/define-rollup";
import { ROLLUPS } from "@/db/rollups/registry";
import { rollupFields, rollupUpsertSql } from "@/db/rollups/upsert-sql";
import { codeCatalogue } from "@/db/schema/codes";
import { runToolsRollup } from "@/db/schema/run-tools";
import { spanRollups } from "@/db/schema/span-rollups";

let store: Store;
beforeEach(() => {
  store = openStore(":memory:");
});

/** Runs a rollup's derived upsert on one of its tables with a row given by field name. */
function upsert(rollup: AnyRollup, tableIndex: number, row: Record<string, string | number>) {
  const entry = rollup.tableList[tableIndex]!;
  store.sqlite.prepare(rollupUpsertSql(rollup, entry.table)).run(rollupFields(rollup).map((f) => row[f]));
}

const spanRow = (over: Record<string, number> = {}) => ({
  projectId: "p", hour: 0, tool: "t", code: "c", outcome: "failed", errorClass: "ToolFailure", release: "r", service: "s",
  spans: 1, firstAttempts: 1, secondAttempts: 0, retryAttempts: 0, unnumbered: 0, maxAttempt: 1, retryAfterCount: 1,
  retryAfterSumMs: 2000, backoffCount: 0, backoffSumMs: 0, failedClosed: 0, durationSumMs: 40, ...over,
});

describe("rollup upserts derived from the declarations, on the real migrations", () => {
  it("prepare against every table of every rollup (the declared columns exist)", () => {
    for (const rollup of ROLLUPS) for (const { table } of rollup.tableList) expect(() => store.sqlite.prepare(rollupUpsertSql(rollup, table))).not.toThrow();
    expect(ROLLUPS.flatMap((r) => r.tableList.map((t) => getTableName(t.table))).sort()).toEqual([
      "attempt_counts_6h", "attempt_counts_hourly", "codes", "conformance_counts", "delay_histograms_6h", "delay_histograms_hourly",
      "error_rollups_hourly", "run_stats", "run_tools", "span_rollups_6h", "span_rollups_hourly",
    ]);
  });

  it("merge a second row on the same key with each column's rule: sum and max", () => {
    upsert(spanRollups, 0, spanRow());
    upsert(spanRollups, 0, spanRow({ maxAttempt: 3, firstAttempts: 0, retryAttempts: 1, retryAfterSumMs: 5000, durationSumMs: 60 }));
    upsert(spanRollups, 0, spanRow({ maxAttempt: 2, firstAttempts: 0, secondAttempts: 1, retryAfterCount: 0, retryAfterSumMs: 0 }));
    expect(store.sqlite.prepare("SELECT spans, first_attempts, second_attempts, retry_attempts, max_attempt, retry_after_count, retry_after_sum_ms, duration_sum_ms FROM span_rollups_hourly").all()).toEqual([
      { spans: 3, first_attempts: 1, second_attempts: 1, retry_attempts: 1, max_attempt: 3, retry_after_count: 2, retry_after_sum_ms: 7000, duration_sum_ms: 140 },
    ]);
  });

  it("merge sightings with min and max, and keep rows with another key apart", () => {
    const key = { projectId: "p", code: "c", tool: "t", release: "r", toolVersion: "", errorClass: "ToolFailure", retryable: 1 };
    upsert(codeCatalogue, 0, { ...key, firstSeen: 500, lastSeen: 500, spans: 1, errors: 0 });
    upsert(codeCatalogue, 0, { ...key, firstSeen: 100, lastSeen: 100, spans: 0, errors: 1 });
    upsert(codeCatalogue, 0, { ...key, firstSeen: 900, lastSeen: 900, spans: 1, errors: 0 });
    upsert(codeCatalogue, 0, { ...key, retryable: -1, firstSeen: 50, lastSeen: 50, spans: 1, errors: 0 });
    expect(store.sqlite.prepare("SELECT retryable, first_seen, last_seen, spans, errors FROM codes ORDER BY retryable").all()).toEqual([
      { retryable: -1, first_seen: 50, last_seen: 50, spans: 1, errors: 0 },
      { retryable: 1, first_seen: 100, last_seen: 900, spans: 2, errors: 1 },
    ]);
  });

  it("record a key-only rollup once", () => {
    upsert(runToolsRollup, 0, { projectId: "p", tool: "t", runId: "run" });
    upsert(runToolsRollup, 0, { projectId: "p", tool: "t", runId: "run" });
    expect(store.sqlite.prepare("SELECT * FROM run_tools").all()).toEqual([{ project_id: "p", tool: "t", run_id: "run" }]);
  });

  it("spell the SQL from the Drizzle column names", () => {
    expect(rollupUpsertSql(codeCatalogue, codeCatalogue.tables.all)).toBe(
      "INSERT INTO codes (project_id, code, tool, release, tool_version, error_class, retryable, first_seen, last_seen, spans, errors) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, code, tool, release, tool_version, error_class, retryable) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen), " +
        "last_seen = max(last_seen, excluded.last_seen), spans = spans + excluded.spans, errors = errors + excluded.errors",
    );
  });
});
