import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { lockToldRuns, toldRunsLockSql } from "@/db/ingest/told-steps";
import { openPgStore } from "@/db/store/pg-store";
import type { PgTx } from "@/db/store/types";
import { TOLD_STEPS, type ToldStep } from "@/lib/contracts/told";
import { seededRandom } from "@/lib/runtime";
import { ingestNativeBatch } from "@/test/helpers/ingest";
import { DIALECTS, createTestDatabase, openTestStore } from "@/test/helpers/stores";
import { countsOf, oneShotSteps, storedCounts, storedSteps } from "@/test/helpers/told";
import { allRecords, toldRunRecords, type ToldRunSpec } from "@/test/helpers/told-runs";

// Records must lie within the accepted window (not in the future): a fixed hour five days ago.
const T = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 5 * 86_400_000;
const P = "p";
const DECIDED: ToldStep[] = TOLD_STEPS.filter((s) => s !== "pending");

async function projectStore(dialect: (typeof DIALECTS)[number]): Promise<Store> {
  const store = await openTestStore(dialect);
  await store.run("INSERT INTO projects (id, name, created_at) VALUES (?, 'P', 0)", [P]);
  return store;
}

const spec = (i: number, next: ToldStep, over: Partial<ToldRunSpec> = {}): ToldRunSpec => ({
  runId: `run-${i}`, release: "1.0.0", tool: "book_flight", code: "bad_date", told: `error: bad_date: got "${i}/03/2027", expected YYYY-MM-DD`, next, at: T + i * 5000, ...over,
});

/** The told steps stored, as run → step. */
async function stepsByRun(store: Store): Promise<Record<string, string>> {
  return Object.fromEntries((await storedSteps(store, P)).map((s) => [s.run_id, s.step]));
}

async function expectExact(store: Store): Promise<void> {
  const steps = await storedSteps(store, P);
  expect(await storedCounts(store, P)).toEqual(countsOf(steps));
}

describe.each(DIALECTS)("told steps kept at ingest (%s)", (dialect) => {
  let store: Store;
  afterEach(async () => {
    await store?.close();
  });

  it("classifies every next step of runs sent whole, with the call that decided it", async () => {
    store = await projectStore(dialect);
    const specs = TOLD_STEPS.map((next, i) => spec(i, next, next === "replaced" ? { otherTool: "search_flights" } : {}));
    await ingestNativeBatch(store, P, undefined, specs.flatMap(allRecords));
    expect(await stepsByRun(store)).toEqual(Object.fromEntries(specs.map((s) => [s.runId, s.next])));
    const steps = await storedSteps(store, P);
    const recovered = steps.find((s) => s.step === "recovered")!;
    expect(recovered).toMatchObject({ call_id: "run-0-c1", next_call_id: "run-0-c2", next_tool: "book_flight", next_outcome: "ok", calls: 1, run_state: "completed", release: "1.0.0" });
    expect(recovered.shape).toBe("error: <code>: got <value>, expected YYYY-MM-DD");
    expect(steps.find((s) => s.step === "replaced")).toMatchObject({ next_tool: "search_flights", calls: 1 });
    expect(steps.find((s) => s.step === "run_failed")).toMatchObject({ run_state: "failed", next_call_id: null });
    expect(steps.find((s) => s.step === "pending")).toMatchObject({ run_state: "open" });
    await expectExact(store);
    expect(await store.all("SELECT step, run_state, calls, errors FROM told_step_counts WHERE step = 'repeated'")).toEqual([{ step: "repeated", run_state: "completed", calls: 0, errors: 1 }]);
  });

  it("moves an error between steps as its run's pieces arrive, by deltas that keep the counts exact", async () => {
    store = await projectStore(dialect);
    const r = toldRunRecords(spec(1, "recovered"));
    await ingestNativeBatch(store, P, undefined, r.error);
    expect(await stepsByRun(store)).toEqual({ "run-1": "pending" });
    // The run ends before the model's next call arrives: it gave up, as far as anyone knows.
    await ingestNativeBatch(store, P, undefined, r.end);
    expect(await stepsByRun(store)).toEqual({ "run-1": "gave_up" });
    await expectExact(store);
    // The next call arrives late: the error was recovered from after all.
    await ingestNativeBatch(store, P, undefined, r.next);
    expect(await stepsByRun(store)).toEqual({ "run-1": "recovered" });
    expect(await storedCounts(store, P)).toEqual({ "book_flight | bad_date | 1.0.0 | error: <code>: got <value>, expected YYYY-MM-DD | recovered | completed | 1": 1 });
    expect(await store.all("SELECT step, errors FROM told_step_counts ORDER BY step")).toEqual([
      { step: "gave_up", errors: 0 },
      { step: "pending", errors: 0 },
      { step: "recovered", errors: 1 },
    ]);
    // Replays change nothing.
    await ingestNativeBatch(store, P, undefined, [...r.error, ...r.next, ...r.end]);
    await expectExact(store);
    expect(await store.all("SELECT count(*) AS n FROM told_steps")).toEqual([{ n: 1 }]);
  });

  it("equals a one-shot classification however a project's records are split, ordered and repeated across batches", async () => {
    store = await projectStore(dialect);
    const random = seededRandom(7);
    const pieces: Record<string, unknown>[][] = [];
    for (let i = 0; i < 60; i++) {
      const next = TOLD_STEPS[Math.floor(random() * TOLD_STEPS.length)]!;
      const r = toldRunRecords(spec(i, next, { tool: i % 3 === 0 ? "cancel_booking" : "book_flight", release: i % 2 ? "1.0.0" : "1.1.0" }));
      pieces.push(r.error, r.next, r.end);
    }
    // A second error in some runs, surfaced after the first one's next call.
    for (let i = 0; i < 60; i += 4) {
      pieces.push([
        { type: "tool_call_span", id: `run-${i}-s3`, run_id: `run-${i}`, call_id: `run-${i}-c3`, tool: "book_flight", attempt: 1, started_at: T + i * 5000 + 400, ended_at: T + i * 5000 + 420, outcome: "failed", code: "sold_out", decision: "surfaced", args_hash: "cccccccccccccccc" },
        { type: "tool_error", id: `run-${i}-e3`, run_id: `run-${i}`, call_id: `run-${i}-c3`, tool: "book_flight", code: "sold_out", error_class: "ToolFailure", retryable: false, attempts: 1, decision: "surfaced", told: "error: sold_out: no seats left", occurred_at: T + i * 5000 + 420 },
      ]);
    }
    const records = pieces.flat();
    for (let i = records.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [records[i], records[j]] = [records[j]!, records[i]!];
    }
    for (let at = 0; at < records.length; ) {
      const size = 1 + Math.floor(random() * 25);
      await ingestNativeBatch(store, P, undefined, records.slice(at, at + size));
      at += size;
      await expectExact(store);
    }
    // Some batches again, as a client retrying after a lost answer would.
    await ingestNativeBatch(store, P, undefined, records.slice(0, 40));
    const steps = await storedSteps(store, P);
    expect(steps).toHaveLength(75);
    expect(steps).toEqual(await oneShotSteps(store, P));
    await expectExact(store);
    expect(new Set(steps.map((s) => s.step))).toEqual(new Set([...DECIDED, "pending"]));
    // Some forty batches with a recount after each: beyond the 5 s default on a busy machine's PostgreSQL.
  }, 60_000);

  it("stores the runtime's \"answers no error\" as '' and so judges no replacement from that call", async () => {
    store = await projectStore(dialect);
    const r = toldRunRecords(spec(2, "gave_up"));
    const moveOn = { type: "tool_call_span", id: "run-2-s9", run_id: "run-2", call_id: "run-2-c9", tool: "search_flights", attempt: 1, started_at: T + 10_000 + 300, ended_at: T + 10_000 + 340, outcome: "ok" };
    await ingestNativeBatch(store, P, undefined, [...r.error, { ...moveOn, after_error: null }, ...r.end]);
    expect(await store.all("SELECT call_id, after_error FROM tool_call_spans WHERE call_id = 'run-2-c9'")).toEqual([{ call_id: "run-2-c9", after_error: "" }]);
    expect(await stepsByRun(store)).toEqual({ "run-2": "gave_up" });
    // The same call without the runtime's word is the very next call: the fallback counts it as a replacement.
    await store.run("UPDATE tool_call_spans SET after_error = NULL WHERE call_id = 'run-2-c9'");
    expect((await oneShotSteps(store, P)).map((s) => s.step)).toEqual(["replaced"]);
  });

  it("marks the project's drift findings stale when its counts change, and only then", async () => {
    store = await projectStore(dialect);
    const r = toldRunRecords(spec(1, "gave_up"));
    await ingestNativeBatch(store, P, undefined, r.error);
    expect(await store.all("SELECT project_id FROM told_stale")).toEqual([{ project_id: P }]);
    await store.run("DELETE FROM told_stale");
    // A span of an unrelated run without surfaced errors: nothing to classify.
    await ingestNativeBatch(store, P, undefined, [{ type: "tool_call_span", id: "x", run_id: "other", call_id: "x", tool: "t", attempt: 1, started_at: T, ended_at: T + 1, outcome: "ok" }]);
    expect(await store.all("SELECT project_id FROM told_stale")).toEqual([]);
    // The run's end alone moves pending to gave up.
    await ingestNativeBatch(store, P, undefined, r.end);
    expect(await store.all("SELECT project_id FROM told_stale")).toEqual([{ project_id: P }]);
  });
});

describe.runIf(DIALECTS.includes("postgres"))("told steps of one run ingested on several nodes at once (postgres)", () => {
  let stores: Store[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await Promise.all(stores.map((s) => s.close()));
    stores = [];
    await drop?.();
  });

  it("serialises each run: pieces sent at once through separate pools leave exact steps and counts", async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    // Three pools stand for three nodes; no silent retry, so a deadlock fails the test.
    stores = await Promise.all([0, 1, 2].map(() => openPgStore(db.url, { poolMax: 3, migrate: false })));
    for (const s of stores) {
      const transaction = s.transaction;
      Object.assign(s, { transaction: (fn: Parameters<typeof transaction>[0], options?: Parameters<typeof transaction>[1]) => transaction(fn, { ...options, retries: 0 }) });
    }
    await stores[0]!.run("INSERT INTO projects (id, name, created_at) VALUES (?, 'P', 0)", [P]);
    const random = seededRandom(3);
    const expected: Record<string, string> = {};
    for (let round = 0; round < 8; round++) {
      const specs = Array.from({ length: 12 }, (_, i) => spec(round * 100 + i, TOLD_STEPS[(round + i) % TOLD_STEPS.length]!));
      for (const s of specs) expected[s.runId] = s.next;
      const runs = specs.map(toldRunRecords);
      // Each node gets one piece of every run: the error, the next call, the end.
      const perNode = [runs.flatMap((r) => r.error), runs.flatMap((r) => r.next), runs.flatMap((r) => r.end)];
      await Promise.all(perNode.map((records, n) => (records.length ? ingestNativeBatch(stores[n]!, P, undefined, records.sort(() => random() - 0.5)) : undefined)));
    }
    const store = stores[0]!;
    const steps = await storedSteps(store, P);
    expect(steps).toHaveLength(96);
    expect(steps).toEqual(await oneShotSteps(store, P));
    expect(await storedCounts(store, P)).toEqual(countsOf(steps));
    expect(Object.fromEntries(steps.map((s) => [s.run_id, s.step]))).toEqual(expected);
  });
});

describe.runIf(DIALECTS.includes("postgres"))("the told-run locks sent with BEGIN (postgres)", () => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
  });

  it("take the same advisory locks as lockToldRuns, whatever the ids hold", async () => {
    store = await openTestStore("postgres");
    if (store.dialect !== "postgres") throw new Error("a PostgreSQL store was expected");
    const runs = ["run-2", "it's", "back\\slash", 'a "quote"', "dollar $& $1 $$", "run-2", "?@x"];
    const held = (tx: PgTx) => tx.all<{ key: string }>("SELECT objid::text AS key FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY objid");
    const taken = await store.transaction(async (tx) => {
      await lockToldRuns(tx, "p'1", runs);
      return held(tx as PgTx);
    });
    const sql = toldRunsLockSql("p'1", runs);
    expect(sql).not.toBeNull();
    const inlined = await store.transaction(async (tx) => {
      await (tx as PgTx).client.query(sql!);
      return held(tx as PgTx);
    });
    expect(taken).toHaveLength(6);
    expect(inlined).toEqual(taken);
    expect(toldRunsLockSql("p", [])).toBeNull();
  });
});
