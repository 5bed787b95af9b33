import { afterEach, describe, expect, it } from "vitest";
import type { PgStore } from "@/db/client";
import { foldDrift, foldDriftChunk } from "@/db/drift/refresh-drift";
import { INGEST_BARRIER_LOCK } from "@/db/store/locks";
import { DIALECTS } from "../../helpers/stores";
import { Scenario, T0 } from "./scenario";

const pending = Symbol("pending");
const settledWithin = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<typeof pending>((r) => setTimeout(() => r(pending), ms))]);

// PostgreSQL hands out `pk`s at insert, not at commit: the fold must not pass a row whose
// transaction is still open (db/drift/fold-horizon.ts).
describe.skipIf(!DIALECTS.includes("postgres"))("drift fold horizon (postgres)", () => {
  let s: Scenario;
  afterEach(async () => {
    await s.store.close();
  });

  it("does not skip a row with a lower pk whose ingest transaction commits after a later row's", async () => {
    s = await Scenario.open("postgres");
    const store = s.store as PgStore;
    // An ingest-like transaction: holds the barrier shared, inserts a span (taking the lower pk), and stays open.
    // Its emitter row is committed beforehand, as ingest's would be by a batch before it.
    const emitter = await store.get<{ id: number }>(
      `INSERT INTO span_emitters (project_id, key, tool_version, source) VALUES ('default', '["1.0.0",null,null,null,null,null,"late"]', '1.0.0', 'late') RETURNING id`,
    );
    const late = await store.pool.connect();
    try {
      await late.query("BEGIN");
      await late.query("SELECT pg_advisory_xact_lock_shared($1)", [INGEST_BARRIER_LOCK]);
      const { rows } = await late.query<{ pk: number }>(
        `INSERT INTO tool_call_spans (project_id, span_id, run_id, call_id, tool, emitter_id, attempt, started_at, ended_at, outcome, received_at)
         VALUES ('default', 'late-span', 'late-run', 'late-call', 'search', $3, 1, $1, $2, 'ok', $1) RETURNING pk`,
        [T0, T0 + 100, Number(emitter!.id)],
      );
      const latePk = Number(rows[0]!.pk);

      // Another ingest takes a higher pk and commits first.
      await s.ok(3, { tool: "search", toolVersion: "1.0.0" }).settled();
      const committed = await store.get<{ pk: number }>("SELECT min(pk) AS pk FROM tool_call_spans");
      expect(committed!.pk).toBeGreaterThan(latePk);

      // The fold waits at the barrier instead of reading past the open transaction.
      const fold = foldDrift(store, "default", { now: T0 });
      expect(await settledWithin(fold, 300)).toBe(pending);

      await late.query("COMMIT");
      expect(await fold).toEqual({ spans: 4, errors: 0, complete: true });
    } finally {
      late.release();
    }
    expect(await store.get("SELECT spans, first_attempts FROM drift_tool_releases WHERE tool = 'search'")).toEqual({ spans: 4, first_attempts: 4 });
    const max = await store.get<{ pk: number }>("SELECT max(pk) AS pk FROM tool_call_spans");
    expect(await store.get("SELECT span_watermark FROM drift_state WHERE project_id = 'default'")).toEqual({ span_watermark: max!.pk });
  });

  it("folds up to the horizon and leaves rows above it for the next fold", async () => {
    s = await Scenario.open("postgres");
    const store = s.store as PgStore;
    await s.ok(2, { tool: "search", toolVersion: "1.0.0" }).settled();
    const first = await store.get<{ pk: number }>("SELECT min(pk) AS pk FROM tool_call_spans");
    // A horizon that ends at the first row: the second waits.
    expect(await foldDriftChunk(store, "default", T0, 100, { spans: first!.pk, errors: 0 })).toEqual({ spans: 1, errors: 0 });
    expect(await foldDrift(store, "default", { now: T0 })).toEqual({ spans: 1, errors: 0, complete: true });
  });
});
