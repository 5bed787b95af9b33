import { getTableColumns, getTableName } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import type { AnyRollup } from "@/db/rollups/define-rollup";
import { ROLLUP_LIST } from "@/db/rollups/registry";
import * as schema from "@/db/schema";
import { BatchAggregates } from "@/db/ingest/aggregate";
import { RollupBatch } from "@/db/rollups/rollup-batch";
import { rollupFields, rollupUnnestUpsertSql, rollupUpsertSql } from "@/db/rollups/upsert-sql";
import { pgTx } from "@/db/ingest/pg-named";
import { writeRollupsPg } from "@/db/rollups/write-rollup-pg";
import { codeCatalogue } from "@/db/schema/codes";
import { runStatsRollup } from "@/db/schema/run-stats";
import { runToolsRollup } from "@/db/schema/run-tools";
import { spanRollups } from "@/db/schema/span-rollups";
import { SIX_HOURS_MS } from "@/db/rollups/periods";
import { DIALECTS, openTestStore } from "../../helpers/stores";

const spanRow = (over: Record<string, number> = {}) => ({
  projectId: "p", hour: 0, tool: "t", code: "c", outcome: "failed", errorClass: "ToolFailure", release: "r", service: "s", environment: "e",
  spans: 1, firstAttempts: 1, secondAttempts: 0, retryAttempts: 0, unnumbered: 0, maxAttempt: 1, retryAfterCount: 1,
  retryAfterSumMs: 2000, backoffCount: 0, backoffSumMs: 0, failedClosed: 0, durationSumMs: 40, ...over,
});

describe.each(DIALECTS)("rollup upserts derived from the declarations, on the real migrations (%s)", (dialect) => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore(dialect);
  });
  afterEach(async () => {
    await store.close();
  });

  /** Runs a rollup's derived upsert on one of its tables with a row given by field name. */
  const upsert = (rollup: AnyRollup, tableIndex: number, row: Record<string, string | number>) =>
    store.run(rollupUpsertSql(rollup, rollup.tableList[tableIndex]!.table, dialect), rollupFields(rollup).map((f) => row[f]));

  it("run against every table of every rollup (the declared columns exist)", async () => {
    for (const rollup of ROLLUP_LIST) {
      for (const { table } of rollup.tableList) {
        const columns = getTableColumns(table);
        const row = Object.fromEntries(rollupFields(rollup).map((f) => [f, columns[f]!.columnType === "SQLiteText" ? "x" : 1]));
        await store.run(rollupUpsertSql(rollup, table, dialect), rollupFields(rollup).map((f) => row[f]));
        if (dialect === "postgres") await store.run(rollupUnnestUpsertSql(rollup, table), rollupFields(rollup).map((f) => [row[f]]));
      }
    }
    // Every table of a declared rollup, and every periodic table, is written: none is left to a hand-kept list.
    const declared = (Object.values(schema) as unknown[]).filter((v): v is AnyRollup => typeof v === "object" && v !== null && "tableList" in v);
    expect(new Set(ROLLUP_LIST)).toEqual(new Set(declared));
    expect(ROLLUP_LIST.flatMap((r) => r.tableList.map((t) => getTableName(t.table)))).toContain("span_rollups_6h");
  });

  it("merge a second row on the same key with each column's rule: sum and max", async () => {
    await upsert(spanRollups, 0, spanRow());
    await upsert(spanRollups, 0, spanRow({ maxAttempt: 3, firstAttempts: 0, retryAttempts: 1, retryAfterSumMs: 5000, durationSumMs: 60 }));
    await upsert(spanRollups, 0, spanRow({ maxAttempt: 2, firstAttempts: 0, secondAttempts: 1, retryAfterCount: 0, retryAfterSumMs: 0 }));
    expect(await store.all("SELECT spans, first_attempts, second_attempts, retry_attempts, max_attempt, retry_after_count, retry_after_sum_ms, duration_sum_ms FROM span_rollups_hourly")).toEqual([
      { spans: 3, first_attempts: 1, second_attempts: 1, retry_attempts: 1, max_attempt: 3, retry_after_count: 2, retry_after_sum_ms: 7000, duration_sum_ms: 140 },
    ]);
  });

  it("merge sightings with min and max, and keep rows with another key apart", async () => {
    const key = { projectId: "p", code: "c", tool: "t", release: "r", toolVersion: "", errorClass: "ToolFailure", retryable: 1 };
    await upsert(codeCatalogue, 0, { ...key, firstSeen: 500, lastSeen: 500, spans: 1, errors: 0 });
    await upsert(codeCatalogue, 0, { ...key, firstSeen: 100, lastSeen: 100, spans: 0, errors: 1 });
    await upsert(codeCatalogue, 0, { ...key, firstSeen: 900, lastSeen: 900, spans: 1, errors: 0 });
    await upsert(codeCatalogue, 0, { ...key, retryable: -1, firstSeen: 50, lastSeen: 50, spans: 1, errors: 0 });
    expect(await store.all("SELECT retryable, first_seen, last_seen, spans, errors FROM codes ORDER BY retryable")).toEqual([
      { retryable: -1, first_seen: 50, last_seen: 50, spans: 1, errors: 0 },
      { retryable: 1, first_seen: 100, last_seen: 900, spans: 2, errors: 1 },
    ]);
  });

  it("record a key-only rollup once", async () => {
    await upsert(runToolsRollup, 0, { projectId: "p", tool: "t", runId: "run" });
    await upsert(runToolsRollup, 0, { projectId: "p", tool: "t", runId: "run" });
    expect(await store.all("SELECT * FROM run_tools")).toEqual([{ project_id: "p", tool: "t", run_id: "run" }]);
  });

  it.runIf(dialect === "postgres")("merge a batch's rows in one multi-row statement per table, as row by row", async () => {
    const key = { projectId: "p", code: "c", tool: "t", release: "r", toolVersion: "", errorClass: "ToolFailure", retryable: 1 };
    await upsert(codeCatalogue, 0, { ...key, firstSeen: 500, lastSeen: 500, spans: 1, errors: 0 });
    const batch = new RollupBatch(codeCatalogue);
    batch.add({ ...key, firstSeen: 100, lastSeen: 100, spans: 0, errors: 1 });
    batch.add({ ...key, firstSeen: 900, lastSeen: 900, spans: 1, errors: 0 });
    batch.add({ ...key, retryable: -1, firstSeen: 50, lastSeen: 50, spans: 1, errors: 0 });
    batch.add({ ...key, code: "b", firstSeen: 70, lastSeen: 70, spans: 1, errors: 0 });
    await store.transaction((tx) => writeRollupsPg(pgTx(tx), [batch, new RollupBatch(runToolsRollup)]));
    expect(await store.all("SELECT code, retryable, first_seen, last_seen, spans, errors FROM codes ORDER BY code, retryable")).toEqual([
      { code: "b", retryable: 1, first_seen: 70, last_seen: 70, spans: 1, errors: 0 },
      { code: "c", retryable: -1, first_seen: 50, last_seen: 50, spans: 1, errors: 0 },
      { code: "c", retryable: 1, first_seen: 100, last_seen: 900, spans: 2, errors: 1 },
    ]);
  });
});

describe.runIf(DIALECTS.includes("postgres"))("rollups' coarser tables on PostgreSQL", () => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore("postgres");
  });
  afterEach(async () => {
    await store.close();
  });

  it("hold what the finest table's rows add up to per six hours, before 1970 too, merged into stored rows", async () => {
    const H = 3_600_000;
    const batch = new RollupBatch(spanRollups);
    // Hours 1 and 5 share the six hours from 0; hour 7 starts the next; -1 h belongs to the six hours from -6 h.
    for (const [hour, maxAttempt, spans] of [[1, 2, 1], [5, 4, 2], [7, 1, 3], [-1, 3, 4]] as const) batch.add(spanRow({ hour: hour * H, maxAttempt, spans }));
    await store.transaction((tx) => writeRollupsPg(pgTx(tx), [batch]));
    const again = new RollupBatch(spanRollups);
    again.add(spanRow({ hour: 2 * H, maxAttempt: 3, spans: 5, durationSumMs: 7 }));
    await store.transaction((tx) => writeRollupsPg(pgTx(tx), [again]));
    expect(await store.all("SELECT hour, spans, max_attempt, duration_sum_ms FROM span_rollups_6h ORDER BY hour")).toEqual([
      { hour: -6 * H, spans: 4, max_attempt: 3, duration_sum_ms: 40 },
      { hour: 0, spans: 8, max_attempt: 4, duration_sum_ms: 87 },
      { hour: 6 * H, spans: 3, max_attempt: 1, duration_sum_ms: 40 },
    ]);
    expect(await store.all("SELECT hour, spans FROM span_rollups_hourly ORDER BY hour")).toEqual(
      [[-1, 4], [1, 1], [2, 5], [5, 2], [7, 3]].map(([hour, spans]) => ({ hour: hour! * H, spans })),
    );
  });
});

describe("rollup upsert SQL", () => {
  it("is spelt from the Drizzle column names, the stored side named by its table", () => {
    expect(rollupUpsertSql(codeCatalogue, codeCatalogue.tables.all)).toBe(
      "INSERT INTO codes (project_id, code, tool, release, tool_version, error_class, retryable, first_seen, last_seen, spans, errors) " +
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, code, tool, release, tool_version, error_class, retryable) DO UPDATE SET " +
        "first_seen = min(codes.first_seen, excluded.first_seen), last_seen = max(codes.last_seen, excluded.last_seen), " +
        "spans = codes.spans + excluded.spans, errors = codes.errors + excluded.errors",
    );
  });

  it("uses least/greatest on PostgreSQL, and one array per field in the multi-row form", () => {
    expect(rollupUpsertSql(codeCatalogue, codeCatalogue.tables.all, "postgres")).toContain("ELSE least(codes.first_seen, excluded.first_seen) END");
    const multi = rollupUnnestUpsertSql(codeCatalogue, codeCatalogue.tables.all);
    expect(multi).toMatch(/^INSERT INTO codes \(project_id, .*, errors\) SELECT project_id, .*, errors FROM unnest\(\$1::text\[\], \$2::text\[\], .*\$11::bigint\[\]\) AS u\(/);
    // Rows are written (and locked) in key order: the seven key columns.
    expect(multi).toContain("ORDER BY 1, 2, 3, 4, 5, 6, 7 ON CONFLICT (project_id, code, tool, release, tool_version, error_class, retryable) DO UPDATE SET");
    expect(multi).toContain("ELSE greatest(codes.last_seen, excluded.last_seen) END");
  });

  it("derives a coarser table from the finest table's parameters: the period truncated, values merged by their rules", () => {
    const coarse = rollupUnnestUpsertSql(spanRollups, spanRollups.tables.sixHourly, SIX_HOURS_MS);
    expect(coarse).toContain("SELECT project_id, hour - ((hour % 21600000) + 21600000) % 21600000 AS hour, tool,");
    expect(coarse).toContain("CAST(sum(spans) AS bigint) AS spans");
    expect(coarse).toContain("CAST(max(max_attempt) AS bigint) AS max_attempt");
    expect(coarse).toContain("GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ON CONFLICT");
    expect(() => rollupUnnestUpsertSql(runStatsRollup, runStatsRollup.tableList[0]!.table, 21_600_000)).toThrow(/period key/);
  });
});

describe("the rollup registry", () => {
  it("is the order ingest writes rollups in on both engines (PostgreSQL locks their rows in it)", () => {
    expect(new BatchAggregates("p").all().map((b) => b.rollup)).toEqual(ROLLUP_LIST);
    expect(ROLLUP_LIST.length).toBe(new Set(ROLLUP_LIST).size);
  });
});
