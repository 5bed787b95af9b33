import { getTableColumns, getTableName } from "drizzle-orm";
import type { AnySQLiteTable } from "drizzle-orm/sqlite-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { BatchAggregates } from "@/db/ingest/aggregate";
import { callEndingRows, recountCallEndings } from "@/test/helpers/call-endings";
import { writeRows, type WriteResult } from "@/db/ingest/write-rows";
import { compileRollup, type StoredRow } from "@/db/rollups/compile-rollup";
import { countsOf, oneShotSteps, storedCounts, storedSteps } from "@/test/helpers/told";
import { runs } from "@/db/schema/runs";
import { toolCallSpans } from "@/db/schema/tool-call-spans";
import { toolErrors } from "@/db/schema/tool-errors";
import type { RunRow, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { SPAN_COLUMNS } from "@/test/helpers/spans-read";
import { batchOf, ERRORS, rawRows, rollupRows, SPANS, T } from "@/test/helpers/write-batches";
import { seededRandom } from "@/lib/runtime";

// The write path's contract across engines: the same batches give the same answers and the same
// tables on SQLite and PostgreSQL, and on PostgreSQL concurrent overlapping batches (several
// connections, as several nodes would) store each record once with rollups equal to a recount.

/** The rollups recounted from the raw rows stored, as one batch of every row would add them up. */
async function recount(store: Store, projectId: string): Promise<Record<string, StoredRow[]>> {
  const fromDb = <R,>(table: AnySQLiteTable, row: Record<string, unknown>): R => {
    const out: Record<string, unknown> = {};
    for (const [field, column] of table === toolCallSpans ? SPAN_COLUMNS : Object.entries(getTableColumns(table))) {
      const v = row[column.name];
      out[field] = column.columnType === "SQLiteBoolean" && v !== null ? v === 1 : v;
    }
    return out as R;
  };
  const agg = new BatchAggregates(projectId);
  for (const r of await rawRows(store, toolCallSpans)) agg.addSpan(fromDb<SpanRow>(toolCallSpans, r));
  for (const r of await rawRows(store, toolErrors)) agg.addToolError(fromDb<ToolErrorRow>(toolErrors, r));
  for (const r of await rawRows(store, runs)) agg.addRun(fromDb<RunRow>(runs, r));
  const out: Record<string, StoredRow[]> = {};
  for (const batch of agg.all()) {
    const { key } = compileRollup(batch.rollup);
    for (const t of batch.rollup.tableList) {
      out[getTableName(t.table)] = [...batch.rowsFor(t)].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    }
  }
  return out;
}

/**
 * The told steps equal a one-shot classification of the raw rows, and their counts equal the
 * counts by delta, however the batches arrived: split, replayed, or at once on several connections.
 */
async function expectToldExact(store: Store): Promise<void> {
  const steps = await storedSteps(store, "p");
  expect(steps.length).toBeGreaterThan(20);
  expect(steps).toEqual(await oneShotSteps(store, "p"));
  expect(await storedCounts(store, "p")).toEqual(countsOf(steps));
}

/** The SLO's call endings equal a recount by its raw read, however the batches arrived. */
async function expectEndingsExact(store: Store): Promise<void> {
  const rows = await callEndingRows(store, "p");
  expect(rows.length).toBeGreaterThan(20);
  expect(rows).toEqual(await recountCallEndings(store, "p"));
}

const PG = DIALECTS.includes("postgres");

describe.runIf(PG)("the same batches on SQLite and PostgreSQL", () => {
  let sqlite: Store;
  let pg: Store;
  beforeAll(async () => {
    [sqlite, pg] = await Promise.all([openTestStore("sqlite"), openTestStore("postgres")]);
    for (const store of [sqlite, pg]) await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0)");
  });
  afterAll(async () => {
    await Promise.all([sqlite?.close(), pg?.close()]);
  });

  it("give the same duplicates and counts, raw rows in the same order and identical rollup tables", async () => {
    const next = seededRandom(11);
    const batches = [1, 5, 40, 120, 250, 500, 80, 500].map((size) => batchOf(next, size));
    batches.push(batches[3]!, batches[5]!); // replays: all duplicates
    const results: WriteResult[][] = [[], []];
    for (const batch of batches) {
      results[0]!.push(await writeRows(sqlite, "p", batch, T));
      results[1]!.push(await writeRows(pg, "p", batch, T));
    }
    expect(results[1]).toEqual(results[0]);
    // A replayed span or error changes nothing; a replayed run record may merge in again after a later one.
    expect(results[0]!.at(-1)!.stored).toBeLessThanOrEqual(batches[5]!.runs.length);
    expect(results[0]!.reduce((n, r) => n + r.duplicateIndexes.length, 0)).toBeGreaterThan(500);
    for (const table of [toolCallSpans, toolErrors, runs]) expect(await rawRows(pg, table)).toEqual(await rawRows(sqlite, table));
    const rollups = await rollupRows(sqlite);
    expect(Object.values(rollups).every((rows) => rows.length > 0)).toBe(true);
    expect(await rollupRows(pg)).toEqual(rollups);
    // Drops have no raw rows to recount from; told counts are recounted from the told steps and call
    // endings by the SLO's raw read (below); every other rollup equals a recount.
    const { emitter_drops: _drops, told_step_counts: _told, call_endings_hourly: _endings, ...recountable } = rollups;
    const { emitter_drops: _none, told_step_counts: _noTold, call_endings_hourly: _noEndings, ...recounted } = await recount(sqlite, "p");
    expect(recounted).toEqual(recountable);
    for (const store of [sqlite, pg]) await expectToldExact(store);
    for (const store of [sqlite, pg]) await expectEndingsExact(store);
  });
});

describe.runIf(PG)("concurrent overlapping batches on PostgreSQL", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore("postgres");
    await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0)");
    // No silent retry: a deadlock must fail the test, not be absorbed by the transaction's retries.
    const transaction = store.transaction;
    Object.assign(store, { transaction: (fn: Parameters<typeof transaction>[0], options?: Parameters<typeof transaction>[1]) => transaction(fn, { ...options, retries: 0 }) });
  });
  afterAll(async () => {
    await store?.close();
  });

  it("store every record once, without deadlocks, with rollups equal to a recount of the raw rows", async () => {
    const next = seededRandom(5);
    for (let round = 0; round < 3; round++) {
      // Batches share most records, each in its own order; one is another's reverse.
      const batches = Array.from({ length: 8 }, (_, i) => batchOf(next, 400, i * 37));
      batches.push({ spans: [...batches[0]!.spans].reverse(), toolErrors: [...batches[0]!.toolErrors].reverse(), runs: [...batches[0]!.runs].reverse() });
      const results = await Promise.all(batches.map((b) => writeRows(store, "p", b, T)));
      for (const [i, r] of results.entries()) {
        const b = batches[i]!;
        expect(r.stored + r.duplicateIndexes.length).toBe(b.spans.length + b.toolErrors.length + b.runs.length);
      }
    }
    const counts = await store.all<{ spans: number; distinct_spans: number; errors: number; distinct_errors: number }>(
      "SELECT (SELECT count(*) FROM tool_call_spans) AS spans, (SELECT count(DISTINCT span_id) FROM tool_call_spans) AS distinct_spans, " +
        "(SELECT count(*) FROM tool_errors) AS errors, (SELECT count(DISTINCT event_id) FROM tool_errors) AS distinct_errors",
    );
    expect(counts).toEqual([{ spans: SPANS, distinct_spans: SPANS, errors: ERRORS, distinct_errors: ERRORS }]);
    const { emitter_drops: drops, told_step_counts: _told, call_endings_hourly: _endings, ...recountable } = await rollupRows(store);
    const { emitter_drops: _none, told_step_counts: _noTold, call_endings_hourly: _noEndings, ...recounted } = await recount(store, "p");
    expect(recounted).toEqual(recountable);
    await expectToldExact(store);
    await expectEndingsExact(store);
    // Every delivery of a refused span counts: 3 rounds of 8 batches of 400 records with a drop every
    // 40th (the reversed copy carries none).
    expect(drops!.reduce((n, r) => n + Number(r.spans), 0)).toBe(3 * 8 * 10);
  });
});
