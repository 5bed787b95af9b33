// `call_endings_hourly` (what the SLO pages read) stays equal to a recount from the raw spans and told
// steps by the SLO's own raw read, on both engines: after every batch of runs split, shuffled and
// replayed (endings move as later attempts, earlier attempts and the model's next calls arrive), after
// retention, and when the migration backfills it on a database that holds spans already. The SLO
// reads that combine it with raw edges answer what the raw reads answer, at any `now`.
import { afterEach, describe, expect, it } from "vitest";
import type { Dialect, Store } from "@/db/client";
import { pruneExpiredRuns, pruneRollups } from "@/db/retention/prune-expired";
import { sloCallBuckets, sloRawCallWindows } from "@/db/slos/slo-counts";
import { sloCallHours, sloCallWindows } from "@/db/slos/slo-window-counts";
import type { ToldStep } from "@/lib/contracts/told";
import { seededRandom } from "@/lib/runtime";
import { callEndingRows, recountCallEndings } from "@/test/helpers/call-endings";
import { ingestNativeBatch } from "@/test/helpers/ingest";
import { bytesToHex } from "@/db/schema/hex-bytes";
import { upgradedStore } from "@/test/helpers/migrate-before";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";
import { SPANS } from "@/test/helpers/spans-read";
import { toldRunRecords } from "@/test/helpers/told-runs";

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
// Records must lie within the accepted window (not in the future): a fixed hour five days ago.
const T = Math.floor(Date.now() / HOUR) * HOUR - 5 * DAY;
const P = "p";
const RUNS = 48;
const STEPS: ToldStep[] = ["recovered", "replaced", "repeated", "changed_failed", "gave_up", "run_failed", "pending"];
const TOOLS = ["book_flight", "cancel_booking", "fallback_tool", "retrying"];

const span = (run: string, id: string, call: string, attempt: number, at: number, outcome: string, extra: Record<string, unknown> = {}) => ({
  type: "tool_call_span", id: `${run}-${id}`, run_id: run, call_id: call, tool: "retrying", attempt, started_at: at, ended_at: at + 30, outcome, ...extra,
});

/**
 * Run i, 7 minutes after run i-1 (six hours in all): a told run with a known next step (the model's
 * next call may arrive in a later batch and make the error recovered), and a call retried across an
 * hour boundary for some runs: failed and retried, failed without a decision (an ending until the
 * next attempt arrives), then ok, declined, or nothing more; every fifth run has a cancelled call.
 */
function runRecords(i: number): Record<string, unknown>[][] {
  const runId = `run-${i}`;
  const at = T + i * 7 * MIN;
  const told = toldRunRecords({
    runId, release: "1.0.0", tool: i % 3 === 0 ? "cancel_booking" : "book_flight", code: "bad_date", told: `error: bad_date: got "${i}/03/2027"`, next: STEPS[i % STEPS.length]!, at,
  });
  // A run of its own, so the told runs' next steps stay the ones asked for.
  const retryRun = `${runId}-retry`;
  const call = `${retryRun}-c`;
  const later = at + (i % 2 === 0 ? HOUR : 2 * MIN);
  const retries = [
    [span(retryRun, "r1", call, 1, at + 60, "failed", { code: "busy", decision: "retried" })],
    [span(retryRun, "r2", call, 2, at + 90, "failed", { code: "busy" })],
    i % 4 === 3 ? [] : [span(retryRun, "r3", call, 3, later, i % 4 === 1 ? "declined" : "ok", i % 4 === 1 ? { code: "no_seats", decision: "delivered" } : {})],
    i % 5 === 0 ? [span(retryRun, "x", `${retryRun}-x`, 1, at + 120, "cancelled")] : [],
  ];
  return [told.error, told.next, told.end, ...retries];
}

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const allRecords = () => Array.from({ length: RUNS }, (_, i) => runRecords(i)).flat(2);

async function projectStore(dialect: Dialect): Promise<Store> {
  const store = await openTestStore(dialect);
  await store.run("INSERT INTO projects (id, name, created_at) VALUES (?, 'P', 0)", [P]);
  return store;
}

async function expectExact(store: Store): Promise<void> {
  expect(await callEndingRows(store, P)).toEqual(await recountCallEndings(store, P));
}

// PostgreSQL's generated text-search column is written by the database itself.
const GENERATED = new Set(["message_tsv"]);

/** Copies a table's rows (every stored column) from one store to another. */
// Spans are copied with their emitter's values: the older schema keeps them on the span row.
async function copyRows(from: Store, to: Store, table: string): Promise<number> {
  const rows = await from.all<Record<string, unknown>>(`SELECT * FROM ${table === "tool_call_spans" ? SPANS : table}`);
  for (const row of rows) {
    for (const c of GENERATED) delete row[c];
    // Argument hashes are stored as bytes today; the older schema stored their hex (db/schema/hex-bytes.ts).
    for (const [c, v] of Object.entries(row)) if (Buffer.isBuffer(v)) row[c] = bytesToHex(v);
    const columns = Object.keys(row);
    await to.run(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`, row);
  }
  return rows.length;
}

describe.each(DIALECTS)("the SLO call endings rollup (%s)", (dialect) => {
  let store: Store | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    await cleanup?.();
    cleanup = undefined;
  });

  it("equals a recount from raw rows after every batch, however records are split, ordered and replayed", async () => {
    store = await projectStore(dialect);
    const random = seededRandom(11);
    const records = shuffled(allRecords(), random);
    for (let at = 0; at < records.length; ) {
      const size = 1 + Math.floor(random() * 30);
      await ingestNativeBatch(store, P, undefined, records.slice(at, at + size));
      at += size;
      await expectExact(store);
    }
    await ingestNativeBatch(store, P, undefined, records.slice(0, 60));
    await expectExact(store);
    const rows = await callEndingRows(store, P);
    const total = (f: (r: (typeof rows)[number]) => boolean) => rows.filter(f).reduce((n, r) => n + r.calls, 0);
    // The 48 retried calls end at their third attempt (24 ok, 12 declined) or, for the 12 without
    // one, at their second (failed); the 10 cancelled calls end, not failed.
    expect(total((r) => r.tool === "retrying")).toBe(RUNS + 10);
    expect(total((r) => r.tool === "retrying" && r.failed === 0)).toBe(24 + 10);
    expect(total((r) => r.tool === "retrying" && r.declined === 1)).toBe(12);
    expect(total((r) => r.tool === "retrying" && r.failed === 1 && r.declined === 0)).toBe(12);
    // Told runs: first calls recovered from (recovered, replaced) count as recovered failures.
    expect(total((r) => r.failed === 1 && r.recovered === 1)).toBe(14);
    expect(new Set(rows.map((r) => r.tool))).toEqual(new Set(TOOLS));
    expect(new Set(rows.map((r) => (r.hour - T) / HOUR))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));
  }, 120_000);

  it("answers the SLO's windows and hours as the raw reads do, at any moment", async () => {
    store = await projectStore(dialect);
    await ingestNativeBatch(store, P, undefined, allRecords());
    for (const now of [T + 3 * HOUR + 17 * MIN + 41_003, T + 5 * HOUR, T + 20 * MIN, T + 4 * HOUR + 2 * MIN, T + 7 * HOUR + 59 * MIN]) {
      const scope = { project: P, tools: ["book_flight", "retrying", "fallback_tool"], from: now - 28 * DAY, to: now };
      const starts = { window: now - 28 * DAY, h6: now - 6 * HOUR, h1: now - HOUR, m30: now - 30 * MIN, m5: now - 5 * MIN, h2: T + 83 * MIN };
      const windows = await sloCallWindows(store, scope, starts);
      expect(windows).toEqual(await sloRawCallWindows(store, scope, starts));
      expect(await sloCallHours(store, scope)).toEqual(await sloCallBuckets(store, { ...scope, bucketMs: HOUR }));
      const late = { ...scope, from: T + 83 * MIN };
      expect(await sloCallHours(store, late)).toEqual(await sloCallBuckets(store, { ...late, bucketMs: HOUR }));
    }
    // Not vacuous: at 03:17 the hour before holds calls of every kind the fixture makes.
    const now = T + 3 * HOUR + 17 * MIN;
    const h1 = (await sloCallWindows(store, { project: P, tools: TOOLS, from: now - HOUR, to: now }, { h1: now - HOUR })).h1;
    expect(h1.reduce((n, g) => n + g.calls, 0)).toBeGreaterThan(10);
    expect(new Set(h1.map((g) => `${g.failed}/${g.declined}/${g.recovered}`)).size).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it("is pruned with the other rollups and stays equal to the raw rows retention keeps", async () => {
    store = await projectStore(dialect);
    await ingestNativeBatch(store, P, undefined, allRecords());
    const cut = T + 3 * HOUR;
    const policy = { rawCutoffMs: cut, maxSpans: 1_000_000, rollupCutoffMs: cut };
    while ((await pruneExpiredRuns(store, policy)).runs > 0);
    expect(await pruneRollups(store, policy)).toBeGreaterThan(0);
    const rows = await callEndingRows(store, P);
    expect(Math.min(...rows.map((r) => r.hour))).toBe(cut);
    expect(rows).toEqual(await recountCallEndings(store, P, cut));
    // Runs that ended before the cut are gone from the raw rows, and their hours from the rollup.
    expect(await store.all("SELECT count(*) AS n FROM tool_call_spans WHERE run_id = 'run-0'")).toEqual([{ n: 0 }]);
  }, 120_000);

  it("is backfilled by its migration from the spans and told steps a database already holds", async () => {
    // The same history ingested today (rollup kept at ingest) and copied, raw rows only, into a
    // database migrated up to the migration before the rollup's, which then runs the rest.
    const source = await projectStore(dialect);
    store = source;
    const random = seededRandom(5);
    const records = shuffled(allRecords(), random);
    for (let at = 0; at < records.length; at += 40) await ingestNativeBatch(source, P, undefined, records.slice(at, at + 40));
    const ingested = await callEndingRows(source, P);
    const upgraded = await upgradedStore(dialect, "_call_endings", async (target) => {
      await copyRows(source, target, "projects");
      expect(await copyRows(source, target, "tool_call_spans")).toBe(allRecords().filter((r) => r.type === "tool_call_span").length);
      expect(await copyRows(source, target, "told_steps")).toBe(RUNS);
    });
    cleanup = upgraded.drop;
    const migrated = upgraded.store;
    try {
      const backfilled = await callEndingRows(migrated, P);
      expect(backfilled).toEqual(ingested);
      expect(backfilled).toEqual(await recountCallEndings(migrated, P));
      expect(backfilled.reduce((n, r) => n + r.calls, 0)).toBeGreaterThan(100);
    } finally {
      await migrated.close();
    }
  }, 120_000);
});
