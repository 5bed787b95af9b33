import { getTableName } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { Dialect, Store } from "@/db/client";
import { BatchAggregates } from "@/db/ingest/aggregate";
import { toolErrorInsert } from "@/db/ingest/statements";
import { insertLegacySpans } from "../../helpers/legacy-spans";
import type { SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { spanRow } from "../../helpers/rows";
import { upgradedStore } from "../../helpers/migrate-before";
import { DIALECTS } from "../../helpers/stores";

// The migration that adds `environment` to the rollup keys recounts, from the raw rows, every period
// the raw rows still cover whole, and keeps older periods (raw rows pruned) with environment ''.

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 9, 5, 0, 0, 0);

// Raw spans from 02:30 on (so 02:00 is a partly pruned hour) in two environments; the rollups of
// 00:00 and 02:00 predate them (their raw rows were pruned) and must be kept as they are.
const spans: SpanRow[] = [
  spanRow({ spanId: "a", runId: "r1", callId: "c1", tool: "search", attempt: 1, startedAt: T0 + 2.5 * HOUR, endedAt: T0 + 2.5 * HOUR + 40, environment: "prod", outcome: "failed", code: "rate_limited", retryAfterMs: 1200 }),
  spanRow({ spanId: "b", runId: "r1", callId: "c1", tool: "search", attempt: 2, startedAt: T0 + 3 * HOUR + 5, endedAt: T0 + 3 * HOUR + 25, environment: "prod", backoffMs: 300 }),
  spanRow({ spanId: "c", runId: "r2", callId: "c2", tool: "search", attempt: 1, startedAt: T0 + 3 * HOUR + 50, endedAt: T0 + 3 * HOUR + 90, environment: "staging" }),
  spanRow({ spanId: "d", runId: "r2", callId: "c3", tool: "search", attempt: null, startedAt: T0 + 7 * HOUR, endedAt: T0 + 7 * HOUR + 9, environment: null, outcome: "timed_out", decision: "failed_closed" }),
];
const error = (eventId: string, occurredAt: number): ToolErrorRow => ({
  eventId, runId: "r2", callId: "c3", tool: "search", toolVersion: null, release: "1.0", service: "agent", environment: "staging", code: "timeout",
  errorClass: "ToolTimedOutError", retryable: true, attempts: 1, decision: "exhausted", told: "timeout", derived: null, occurredAt, source: "native", experiment: null, variant: null,
});
// 07:00 is the oldest (partly pruned) hour of the raw errors: kept; 09:00 is recounted.
const errors: ToolErrorRow[] = [error("e0", T0 + 7 * HOUR + 10), error("e1", T0 + 9 * HOUR)];

const OLD_SPAN_ROLLUP = "(project_id, hour, tool, code, outcome, error_class, release, service, spans, first_attempts, second_attempts, retry_attempts, unnumbered, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, failed_closed, duration_sum_ms)";

async function seedBefore(store: Store, dialect: Dialect): Promise<void> {
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0)");
  const context = { projectId: "p", receivedAt: T0 };
  // Today's insert statements carry the columns later migrations added: give them to the old schema
  // for the seed, and take them away again before those migrations run.
  const later = ["started_sub_ns", "args_hash", "after_error"];
  const laterErrors = ["experiment", "variant"];
  for (const c of laterErrors) await store.run(`ALTER TABLE tool_errors ADD COLUMN ${c} text`);
  await insertLegacySpans(store, context, spans, later);
  if (dialect === "sqlite") {
    for (const e of errors) await store.run(toolErrorInsert.sql, toolErrorInsert.bind(context, e));
  } else {
    await store.all(toolErrorInsert.pgSql, toolErrorInsert.columns(context, errors));
  }
  for (const c of laterErrors) await store.run(`ALTER TABLE tool_errors DROP COLUMN ${c}`);
  for (const [table, hour, n] of [["span_rollups_hourly", T0, 5], ["span_rollups_hourly", T0 + 2 * HOUR, 7], ["span_rollups_6h", T0, 12]] as const) {
    await store.run(`INSERT INTO ${table} ${OLD_SPAN_ROLLUP} VALUES ('p', ${hour}, 'search', '', 'ok', '', '', '', ${n}, ${n}, 0, 0, 0, 1, 0, 0, 0, 0, 0, ${n * 10})`);
  }
  await store.run(
    `INSERT INTO error_rollups_hourly (project_id, hour, tool, code, error_class, decision, release, service, errors, attempts_sum, retryable_count)
     VALUES ('p', ${T0 + 7 * HOUR}, 'search', 'timeout', '', '', '', '', 3, 3, 0)`,
  );
  // Stale counts for a covered hour: the recount replaces them.
  await store.run(`INSERT INTO span_rollups_hourly ${OLD_SPAN_ROLLUP} VALUES ('p', ${T0 + 3 * HOUR}, 'search', '', 'ok', '', '', '', 99, 99, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)`);
}

/** What ingest would have counted from the raw rows, per table, sorted. */
function recount(table: string, from: number): Record<string, unknown>[] {
  const agg = new BatchAggregates("p");
  for (const s of spans) agg.addSpan(s);
  for (const e of errors) agg.addToolError(e);
  for (const batch of agg.all()) {
    for (const t of batch.rollup.tableList) {
      if (getTableName(t.table) !== table) continue;
      return [...batch.rowsFor(t)].filter((r) => (r as { hour: number }).hour >= from) as Record<string, unknown>[];
    }
  }
  throw new Error(`no rollup ${table}`);
}

const sorted = (rows: Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort();

async function rows(store: Store, table: string, columns: Record<string, string>, where: string): Promise<Record<string, unknown>[]> {
  const list = Object.entries(columns).map(([field, column]) => `${column} AS "${field}"`).join(", ");
  return store.all(`SELECT ${list} FROM ${table} WHERE ${where}`);
}

const SPAN_COLUMNS = {
  projectId: "project_id", hour: "hour", tool: "tool", code: "code", outcome: "outcome", errorClass: "error_class", release: "release", service: "service",
  environment: "environment", spans: "spans", firstAttempts: "first_attempts", secondAttempts: "second_attempts", retryAttempts: "retry_attempts",
  unnumbered: "unnumbered", maxAttempt: "max_attempt", retryAfterCount: "retry_after_count", retryAfterSumMs: "retry_after_sum_ms",
  backoffCount: "backoff_count", backoffSumMs: "backoff_sum_ms", failedClosed: "failed_closed", durationSumMs: "duration_sum_ms",
};

describe.each(DIALECTS)("the rollups' environment key migration (%s)", (dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  it("recounts the periods the raw rows cover by environment and keeps older ones as unknown", async () => {
    const { store, drop } = await upgradedStore(dialect, "_rollup_environment", (before) => seedBefore(before, dialect));
    cleanup = drop;
    try {
      // Hourly: 00:00 and 02:00 (partly pruned) kept with environment ''; from 03:00 on, the recount.
      const kept = await rows(store, "span_rollups_hourly", SPAN_COLUMNS, `hour < ${T0 + 3 * HOUR} ORDER BY hour`);
      expect(kept.map((r) => [(Number(r.hour) - T0) / HOUR, r.environment, r.spans])).toEqual([[0, "", 5], [2, "", 7]]);
      const hourly = await rows(store, "span_rollups_hourly", SPAN_COLUMNS, `hour >= ${T0 + 3 * HOUR}`);
      expect(sorted(hourly)).toEqual(sorted(recount("span_rollups_hourly", T0 + 3 * HOUR)));
      expect(hourly.map((r) => r.environment).sort()).toEqual(["", "prod", "staging"]);
      // Six-hourly: 00:00 is partly pruned (kept); 06:00 is recounted.
      const sixHourly = await rows(store, "span_rollups_6h", SPAN_COLUMNS, "1 = 1 ORDER BY hour");
      expect(sixHourly[0]).toMatchObject({ environment: "", spans: 12 });
      expect(sorted(sixHourly.slice(1))).toEqual(sorted(recount("span_rollups_6h", T0 + 6 * HOUR)));
      const attempts = await rows(store, "attempt_counts_hourly", { hour: "hour", environment: "environment", attempt: "attempt", spans: "spans" }, "1 = 1");
      expect(attempts.map((r) => [(Number(r.hour) - T0) / HOUR, r.environment, r.attempt, r.spans]).sort()).toEqual([[3, "prod", 2, 1], [3, "staging", 1, 1]]);
      const delays = await rows(store, "delay_histograms_hourly", { hour: "hour", environment: "environment", kind: "kind", bucketMs: "bucket_ms", count: "count" }, "1 = 1");
      expect(delays).toEqual([{ hour: T0 + 3 * HOUR, environment: "prod", kind: "backoff", bucketMs: 500, count: 1 }]);
      const errorRollups = await rows(store, "error_rollups_hourly", { hour: "hour", environment: "environment", errors: "errors", retryableCount: "retryable_count" }, "1 = 1 ORDER BY hour");
      expect(errorRollups.map((r) => [(Number(r.hour) - T0) / HOUR, r.environment, r.errors, r.retryableCount])).toEqual([[7, "", 3, 0], [9, "staging", 1, 1]]);
    } finally {
      await store.close();
    }
  });
});
