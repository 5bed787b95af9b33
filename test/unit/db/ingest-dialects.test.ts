import { PG_TEXT_COLUMNS } from "@/db/queries/text-search";
import { getTableColumns, getTableName } from "drizzle-orm";
import type { AnySQLiteTable } from "drizzle-orm/sqlite-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { BatchAggregates } from "@/db/ingest/aggregate";
import { callEndingRows, recountCallEndings } from "@/test/helpers/call-endings";
import { writeRows, type WriteResult } from "@/db/ingest/write-rows";
import { compileRollup, type StoredRow } from "@/db/rollups/compile-rollup";
import { ROLLUP_LIST } from "@/db/rollups/registry";
import { countsOf, oneShotSteps, storedCounts, storedSteps } from "@/test/helpers/told";
import { runs } from "@/db/schema/runs";
import { toolCallSpans } from "@/db/schema/tool-call-spans";
import { toolErrors } from "@/db/schema/tool-errors";
import type { RowBatch, RunRow, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { SPANS as SPANS_READ, SPAN_COLUMNS } from "@/test/helpers/spans-read";
import { seededRandom } from "@/lib/runtime";

// The write path's contract across engines: the same batches give the same answers and the same
// tables on SQLite and PostgreSQL, and on PostgreSQL concurrent overlapping batches (several
// connections, as several nodes would) store each record once with rollups equal to a recount.

const T = Date.UTC(2026, 10, 1, 9, 0, 0);
const TOOLS = ["cancel_booking", "search", "lookup-customer", "refund", "Send_Email"];
const OUTCOMES = ["ok", "ok", "failed", "declined", "refused", "timed_out", null];

// Every field of a record is a function of its number, so a record sent twice is the same record.
function span(k: number): SpanRow {
  const outcome = OUTCOMES[k % OUTCOMES.length]!;
  const failed = outcome !== null && outcome !== "ok";
  const startedAt = T + k * 97_000;
  return {
    spanId: `s-${k}`, traceId: null, parentSpanId: null, runId: `run-${k % 30}`, callId: `call-${k >> 1}`, tool: TOOLS[k % TOOLS.length]!,
    toolVersion: k % 4 === 0 ? null : `1.${k % 3}.0`, release: k % 5 === 0 ? null : `2026.${k % 2}`, service: k % 6 === 0 ? null : "agent",
    environment: "prod", sdkName: "bench", sdkVersion: "1", attempt: k % 9 === 0 ? null : (k % 3) + 1, startedAt, startedSubNs: null, endedAt: startedAt + (k % 50) * 7,
    outcome, code: failed && k % 4 !== 1 ? `code_${k % 6}` : null, errorClass: failed ? "ToolFailure" : null, retryable: failed ? k % 2 === 0 : null,
    retryAfterMs: failed && k % 3 === 0 ? 1000 + (k % 7) * 900 : null, backoffMs: failed ? 250 * (k % 11) : null,
    decision: k % 13 === 0 ? "failed_closed" : failed ? "retried" : null, permitted: k % 8 === 0 ? null : k % 8 !== 1, abandoned: k % 10 === 0,
    message: failed ? `failure ${k}` : null, derived: k % 9 === 0 ? "attempt" : null,
    // One hash per call (spans k and k+1 are its attempts), absent on some: repeats, changes and unknowns.
    argsHash: (k >> 1) % 5 === 0 ? null : `a${(k >> 1) % 3}`.repeat(8), afterError: null, source: k % 2 === 0 ? "native" : "otlp",
  };
}

function toolError(k: number): ToolErrorRow {
  return {
    eventId: `e-${k}`, runId: `run-${k % 30}`, callId: `call-${k}`, tool: TOOLS[k % TOOLS.length]!, toolVersion: null, release: `2026.${k % 2}`,
    service: "agent", environment: null, code: k % 5 === 0 ? null : `code_${k % 6}`, errorClass: k % 3 === 0 ? null : "ToolFailure",
    retryable: k % 4 === 0 ? null : k % 2 === 0, attempts: k % 7 === 0 ? null : (k % 4) + 1, decision: k % 2 === 0 ? "exhausted" : "surfaced",
    told: `told ${k}`, derived: null, occurredAt: T + k * 131_000, source: "native", experiment: null, variant: null,
  };
}

// Each run has a start record and an end record; the end is later than every start, so the
// merged row's start and end are what a recount of run_stats needs.
function runRecord(k: number): RunRow {
  const j = k >> 1;
  const start = k % 2 === 0;
  return {
    recordId: `rec-${j}-${start ? "start" : "end"}`, runId: `run-${j}`, agent: start ? "planner" : null, release: null, service: null, environment: null,
    sdkName: null, sdkVersion: null, startedAt: start ? T + j * 1000 : null, endedAt: start ? null : T + 40 * 3_600_000 + j, state: start ? "running" : "completed",
    deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "native",
  };
}

const SPANS = 300;
const ERRORS = 60;
const RUN_RECORDS = 60;

/** A batch of records drawn with repeats (some within the batch), in shuffled order. */
function batchOf(next: () => number, size: number, offset = 0): RowBatch {
  const batch: RowBatch = { spans: [], toolErrors: [], runs: [], drops: [] };
  for (let index = 0; index < size; index++) {
    // Refused tool-like spans are counts without a raw row; a few per batch, drawn without the random stream.
    if (index % 40 === 0) batch.drops!.push({ emitter: { service: index % 80 ? "agent" : null, convention: "gen_ai" }, reason: "no_tool_name", attribute: "gen_ai.tool.name", at: T + index });
    const r = next();
    if (r < 0.75) batch.spans.push({ index, row: span((offset + Math.floor(next() * SPANS)) % SPANS) });
    else if (r < 0.9) batch.toolErrors.push({ index, row: toolError(Math.floor(next() * ERRORS)) });
    else batch.runs.push({ index, row: runRecord(Math.floor(next() * RUN_RECORDS)) });
  }
  return batch;
}

/** A table's rows without its pk, in pk order (raw tables) or by key (rollups; sorted here, not by a collation). */
async function rawRows(store: Store, table: AnySQLiteTable): Promise<Record<string, unknown>[]> {
  const name = getTableName(table);
  const rows = await store.all<Record<string, unknown>>(`SELECT * FROM ${table === toolCallSpans ? SPANS_READ : name} ORDER BY pk`);
  // PostgreSQL's generated full-text vector is no stored field of the row.
  const generated: string | undefined = PG_TEXT_COLUMNS[name as keyof typeof PG_TEXT_COLUMNS];
  return rows.map(({ pk: _pk, ...rest }) => Object.fromEntries(Object.entries(rest).filter(([k]) => k !== generated)));
}

/** Every rollup table's rows by field name, each sorted by its declared key. */
async function rollupRows(store: Store): Promise<Record<string, StoredRow[]>> {
  const out: Record<string, StoredRow[]> = {};
  for (const rollup of ROLLUP_LIST) {
    const { key } = compileRollup(rollup);
    for (const { table } of rollup.tableList) {
      const columns = Object.entries(getTableColumns(table));
      const rows = await store.all<Record<string, string | number>>(`SELECT * FROM ${getTableName(table)}`);
      out[getTableName(table)] = rows
        .map((r) => Object.fromEntries(columns.map(([field, column]) => [field, r[column.name]!])) as StoredRow)
        .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    }
  }
  return out;
}

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
