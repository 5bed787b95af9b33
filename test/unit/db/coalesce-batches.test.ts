import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { BatchCoalescer } from "@/db/ingest/coalesce-batches";
import { mergeBatches, splitResult } from "@/db/ingest/coalesce-merge";
import { writeRows, type WriteResult } from "@/db/ingest/write-rows";
import { runs } from "@/db/schema/runs";
import { toolCallSpans } from "@/db/schema/tool-call-spans";
import { toolErrors } from "@/db/schema/tool-errors";
import type { RowBatch } from "@/lib/ingest/rows";
import { seededRandom } from "@/lib/runtime";
import { countsOf, oneShotSteps, storedCounts, storedSteps } from "@/test/helpers/told";
import { writeIsolating } from "@/server/ingest/write-isolating";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";
import { batchOf, rawRows, rollupRows, span, T } from "@/test/helpers/write-batches";

// Group commit at ingest (db/ingest/coalesce-batches.ts): batches that wait on a node go in one
// transaction, and each caller still gets what writing its batch alone would have given it.

const only = (spans: number[], from = 0): RowBatch => ({ spans: spans.map((k, i) => ({ index: from + i, row: span(k) })), toolErrors: [], runs: [], drops: [] });

describe("merging batches and splitting the answer", () => {
  it("moves each caller's request indexes past the previous caller's and hands duplicates back by caller", () => {
    const a: RowBatch = { ...only([1, 2]), runs: [], toolErrors: [] };
    const dropsOnly: RowBatch = { spans: [], toolErrors: [], runs: [], drops: [{ emitter: { service: null, convention: "gen_ai" }, reason: "no_tool_name", attribute: null, at: T }] };
    // Indexes with gaps (records rejected before storage) and an index past the last row.
    const b: RowBatch = { spans: [{ index: 3, row: span(1) }, { index: 0, row: span(7) }], toolErrors: [], runs: [], drops: [] };
    const merged = mergeBatches([a, dropsOnly, b]);
    expect(merged.batch.spans.map((e) => [e.index, e.row.spanId])).toEqual([[0, "s-1"], [1, "s-2"], [5, "s-1"], [2, "s-7"]]);
    expect(merged.batch.drops).toEqual(dropsOnly.drops);
    expect(merged.parts).toEqual([{ offset: 0, rows: 2 }, { offset: 2, rows: 0 }, { offset: 2, rows: 2 }]);
    expect(splitResult(merged, { duplicateIndexes: [5, 1], stored: 2 })).toEqual([
      { duplicateIndexes: [1], stored: 1 },
      { duplicateIndexes: [], stored: 0 },
      { duplicateIndexes: [3], stored: 1 },
    ]);
  });
});

describe.each(DIALECTS)("coalesced ingest batches on %s", (dialect) => {
  let store: Store;
  let alone: Store;
  beforeEach(async () => {
    [store, alone] = await Promise.all([openTestStore(dialect), openTestStore(dialect)]);
    for (const s of [store, alone]) await s.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0), ('q', 'Q', 0)");
  });
  afterEach(async () => {
    await Promise.all([store?.close(), alone?.close()]);
  });

  /** A coalescer on `store` whose transactions are recorded: the number of batches in each. */
  function counted(options: { inFlight: number; maxRecords?: number }) {
    const transactions: { projectId: string; records: number }[] = [];
    const coalescer = new BatchCoalescer(store, {
      maxRecords: 10_000,
      ...options,
      now: () => T,
      write: (s, projectId, batch, now) => {
        transactions.push({ projectId, records: batch.spans.length + batch.toolErrors.length + batch.runs.length });
        return writeRows(s, projectId, batch, now);
      },
    });
    return { coalescer, transactions };
  }

  it("write the batches that wait into one transaction per project, under the record cap", async () => {
    const { coalescer, transactions } = counted({ inFlight: 1, maxRecords: 25 });
    const sizes = [10, 10, 10, 10, 3, 20];
    const batches = sizes.map((n, b) => only(Array.from({ length: n }, (_, i) => 1000 + b * 100 + i)));
    const results = await Promise.all([...batches.map((batch) => coalescer.write("p", batch)), coalescer.write("q", only([1, 2]))]);
    // The first starts alone; the others waited: 10 + 10 fit under 25, the next 10 + 3 start a new group, 20 another.
    expect(transactions).toEqual([
      { projectId: "p", records: 10 },
      { projectId: "q", records: 2 },
      { projectId: "p", records: 20 },
      { projectId: "p", records: 13 },
      { projectId: "p", records: 20 },
    ]);
    expect(results.map((r) => r.stored)).toEqual([...sizes, 2]);
    expect(coalescer.stats()).toEqual({ batches: 7, transactions: 5, fallbacks: 0 });
    expect(await store.all("SELECT project_id, count(*) AS n FROM tool_call_spans GROUP BY project_id ORDER BY project_id")).toEqual([
      { project_id: "p", n: 63 },
      { project_id: "q", n: 2 },
    ]);
  });

  it("answer each caller as writing its batch alone would, and store the same rows and rollups", async () => {
    const next = seededRandom(23);
    const batches = [40, 120, 60, 250, 90, 30].map((size, i) => batchOf(next, size, i * 17));
    // The same batch twice in one group, and a replay of the first batch (already committed) in it.
    batches.push(batches[2]!, batches[0]!);
    // One in flight: the first batch is committed before the rest go in one group, the order they are written alone in.
    const { coalescer, transactions } = counted({ inFlight: 1 });
    const together = await Promise.all(batches.map((b) => coalescer.write("p", b)));
    const separately: WriteResult[] = [];
    for (const b of batches) separately.push(await writeRows(alone, "p", b, T));
    expect(transactions.length).toBe(2);
    expect(together).toEqual(separately);
    // Every span and error of a repeated batch is a duplicate (a run record may merge in again after a later one).
    for (const [copy, of] of [[6, 2], [7, 0]] as const) {
      const records = [...batches[of]!.spans, ...batches[of]!.toolErrors].map((e) => e.index);
      expect(together[copy]!.duplicateIndexes).toEqual(expect.arrayContaining(records));
    }
    expect(together.reduce((n, r) => n + r.duplicateIndexes.length, 0)).toBeGreaterThan(300);
    for (const table of [toolCallSpans, toolErrors, runs]) expect(await rawRows(store, table)).toEqual(await rawRows(alone, table));
    // Told counts are kept by delta: the keys a later batch moved a call out of stay behind at zero, and
    // their first and last sightings are bounds, so those depend on how the rows were cut into
    // transactions (as with any other cut); the counts themselves equal the told steps', which equal a
    // one-shot classification, on both stores.
    const { told_step_counts: _told, ...rollups } = await rollupRows(store);
    const { told_step_counts: _toldAlone, ...rollupsAlone } = await rollupRows(alone);
    expect(rollups).toEqual(rollupsAlone);
    for (const s of [store, alone]) {
      const steps = await storedSteps(s, "p");
      expect(steps).toEqual(await oneShotSteps(s, "p"));
      expect(await storedCounts(s, "p")).toEqual(countsOf(steps));
    }
    expect(await storedSteps(store, "p")).toEqual(await storedSteps(alone, "p"));
  });

  it("write every batch of a failed group alone: only the batch at fault fails", async () => {
    await refuseTool(store, "refuse_me");
    const { coalescer, transactions } = counted({ inFlight: 1 });
    const bad = only([501, 502, 503]);
    bad.spans[1]!.row.tool = "refuse_me";
    const settled = await Promise.allSettled([only([1]), only([10, 11]), bad, only([20, 21, 10])].map((b) => coalescer.write("p", b)));
    expect(settled.map((s) => s.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled"]);
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value : null))).toEqual([
      { duplicateIndexes: [], stored: 1 },
      { duplicateIndexes: [], stored: 2 },
      null,
      { duplicateIndexes: [2], stored: 2 },
    ]);
    // The first alone; the group of three; then each of its batches alone, in the order they came.
    expect(transactions.map((t) => t.records)).toEqual([1, 8, 2, 3, 3]);
    expect(coalescer.stats()).toEqual({ batches: 4, transactions: 5, fallbacks: 1 });
    expect((await store.all<{ span_id: string }>("SELECT span_id FROM tool_call_spans ORDER BY span_id")).map((r) => r.span_id)).toEqual(["s-1", "s-10", "s-11", "s-20", "s-21"]);
  });

  it("through the ingest's writer, refuse only the record at fault in a group and store every other", async () => {
    await refuseTool(store, "refuse_me");
    const bad = only([601, 602, 603]);
    bad.spans[2]!.row.tool = "refuse_me";
    // More callers than the node writes at once: the later ones wait and are grouped.
    const batches = [only([1]), only([2]), only([3]), bad, only([4, 3]), only([5])];
    const results = await Promise.all(batches.map((b) => writeIsolating(store, "p", b)));
    const code = dialect === "sqlite" ? "SQLITE_CONSTRAINT_TRIGGER" : "23514";
    expect(results).toEqual([
      ...[0, 1, 2].map(() => ({ duplicateIndexes: [], refused: [] })),
      { duplicateIndexes: [], refused: [{ index: 2, code }] },
      { duplicateIndexes: [1], refused: [] },
      { duplicateIndexes: [], refused: [] },
    ]);
    const stored = (await store.all<{ span_id: string }>("SELECT span_id FROM tool_call_spans ORDER BY span_id")).map((r) => r.span_id);
    expect(stored).toEqual(["s-1", "s-2", "s-3", "s-4", "s-5", "s-601", "s-602"]);
  });
});

/** A real refusal by the engine: a trigger that refuses the spans of one tool. */
async function refuseTool(store: Store, tool: string): Promise<void> {
  if (store.dialect === "sqlite") {
    await store.run(`CREATE TRIGGER coalesce_refuse BEFORE INSERT ON tool_call_spans WHEN NEW.tool = '${tool}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    return;
  }
  await store.run(
    `CREATE FUNCTION coalesce_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.tool = '${tool}' THEN RAISE EXCEPTION 'refused by the test' USING ERRCODE = 'check_violation'; END IF; RETURN NEW; END $$`,
  );
  await store.run("CREATE TRIGGER coalesce_refuse BEFORE INSERT ON tool_call_spans FOR EACH ROW EXECUTE FUNCTION coalesce_refuse()");
}
