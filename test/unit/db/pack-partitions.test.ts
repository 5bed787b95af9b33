import { afterEach, beforeEach, describe, expect, it } from "vitest";
import pg from "pg";
import { openPgStore, type PgStore } from "@/db/client";
import { DAY_MS, PACK_AFTER_MS, ensurePartitions, packClosedPartitions } from "@/db/partitions";
import { TEST_PG_URL, createTestDatabase } from "@/test/helpers/stores";

const DAY0 = Date.UTC(2025, 0, 10);
const SPANS_PER_DAY = 3000;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: PgStore;

/** Spans of one day with ids in ascending order inside the project's key range, as a sequence numbers them. */
async function seedDay(day: number, count = SPANS_PER_DAY): Promise<void> {
  await store.run(
    `INSERT INTO tool_call_spans (project_id, span_id, run_id, call_id, tool, emitter_id, started_at, ended_at, received_at, message)
     SELECT 'p', 's' || @day || '-' || i, 'run-' || (i / 10), 'call-' || @day || '-' || i, 'tool_' || (i % 7), 1, t, t + 5, t,
       CASE WHEN i % 9 = 0 THEN 'connection refused by upstream ' || i END
     FROM generate_series(1, @n) AS i, LATERAL (SELECT @from::bigint + i * 1000 AS t) AS x`,
    { day, n: count, from: DAY0 + day * DAY_MS },
  );
  // Another project's spans sort after this one's, so every insert above lands mid-range.
  await store.run(
    `INSERT INTO tool_call_spans (project_id, span_id, run_id, call_id, tool, emitter_id, started_at, ended_at, received_at)
     VALUES ('q', 'z', 'z', 'z', 'z', 1, @t, @t, @t) ON CONFLICT DO NOTHING`,
    { t: DAY0 + day * DAY_MS },
  );
}

/** Bytes of every index of a partition, by the part of its name after the partition's. */
async function indexBytes(partition: string): Promise<number> {
  const r = await store.get<{ bytes: string }>(
    "SELECT sum(pg_relation_size(indexrelid))::text AS bytes FROM pg_index WHERE indrelid = to_regclass(?)",
    [partition],
  );
  return Number(r!.bytes);
}

const packedMark = async (partition: string) =>
  (await store.get<{ ff: boolean }>("SELECT 'fillfactor=100' = ANY(coalesce(reloptions, '{}')) AS ff FROM pg_class WHERE oid = to_regclass(?)", [partition]))!.ff;

const spans = async () => store.all<{ span_id: string; part: string }>("SELECT span_id, tableoid::regclass::text AS part FROM tool_call_spans ORDER BY span_id");

describe.skipIf(!TEST_PG_URL)("packing the indexes of closed daily partitions (PostgreSQL)", () => {
  beforeEach(async () => {
    db = await createTestDatabase();
    store = await openPgStore(db.url, { poolMax: 4, migrate: false });
    await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0), ('q', 'q', 0)");
    await ensurePartitions(store, DAY0 + 2 * DAY_MS, 2, 0);
  });

  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it("packs the days over for long enough, once, keeping every row and the dedupe key", async () => {
    await seedDay(0);
    await seedDay(1);
    const before = await spans();
    const grown = await indexBytes("tool_call_spans_p20250110");
    // Day 1 ended less than PACK_AFTER_MS ago: left as it is.
    const now = DAY0 + 2 * DAY_MS + PACK_AFTER_MS - 1;
    // Under 1 MiB of indexes a partition is not worth a rebuild yet.
    expect(await packClosedPartitions(store, now)).toEqual({ packed: 0, left: 0 });
    expect(await packedMark("tool_call_spans_p20250110")).toBe(false);
    const all = { minIndexBytes: 0 };
    expect(await packClosedPartitions(store, now, all)).toEqual({ packed: 2, left: 0 }); // day 0 of both raw tables
    const packed = await indexBytes("tool_call_spans_p20250110");
    expect(packed).toBeLessThan(grown * 0.8);
    expect(await indexBytes("tool_call_spans_p20250111")).toBeGreaterThan(packed);
    expect(await packedMark("tool_call_spans_p20250110")).toBe(true);
    expect(await packedMark("tool_call_spans_p20250111")).toBe(false);
    expect(await spans()).toEqual(before);
    // Nothing is done twice; the next day's turn comes.
    expect(await packClosedPartitions(store, now, all)).toEqual({ packed: 0, left: 0 });
    expect(await packClosedPartitions(store, now + 1, all)).toEqual({ packed: 2, left: 0 });
    // The rebuilt unique key still refuses a duplicate, and late rows still go in.
    await expect(seedDay(0, 10)).rejects.toThrow(/duplicate key/);
    await store.run(
      `INSERT INTO tool_call_spans (project_id, span_id, run_id, call_id, tool, emitter_id, started_at, ended_at, received_at)
       VALUES ('p', 'late', 'r', 'c', 't', 1, @t, @t, @t)`,
      { t: DAY0 + 5 },
    );
    expect((await spans()).length).toBe(before.length + 1);
    const valid = await store.all<{ n: string }>("SELECT count(*)::text AS n FROM pg_index WHERE NOT indisvalid");
    expect(valid).toEqual([{ n: "0" }]);
    // The planner reads the rebuilt indexes as before.
    const plan = await store.all<{ "QUERY PLAN": string }>(
      "EXPLAIN SELECT span_id FROM tool_call_spans WHERE project_id = 'p' AND call_id = 'call-0-77'",
    );
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toMatch(/tool_call_spans_p20250110_project_id_call_id_idx|spans_project_call/);
  });

  it("leaves a partition whose rebuild waits too long for the next pass, without a half-built index", async () => {
    await seedDay(0);
    // A transaction holding an older snapshot: the concurrent rebuild must wait for it to end.
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
      await other.query("SELECT count(*) FROM projects");
      const now = DAY0 + DAY_MS + PACK_AFTER_MS;
      const first = await packClosedPartitions(store, now, { lockTimeout: "300ms", minIndexBytes: 0 });
      expect(first.left).toBeGreaterThanOrEqual(1);
      expect(await packedMark("tool_call_spans_p20250110")).toBe(false);
      const leftovers = await store.all<{ name: string }>("SELECT relname AS name FROM pg_class WHERE relname LIKE '%ccnew%' OR relname LIKE '%ccold%'");
      expect(leftovers).toEqual([]);
      await other.query("COMMIT");
      expect((await packClosedPartitions(store, now, { minIndexBytes: 0 })).packed).toBe(first.left);
      expect(await packedMark("tool_call_spans_p20250110")).toBe(true);
    } finally {
      await other.end();
    }
  });
});
