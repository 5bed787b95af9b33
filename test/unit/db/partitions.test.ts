import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openPgStore, type PgStore } from "@/db/client";
import { DAY_MS, dropExpiredPartitions, ensurePartitions, listPartitions } from "@/db/partitions";
import { TEST_PG_URL, createTestDatabase } from "@/test/helpers/stores";

const DAY0 = Date.UTC(2025, 0, 10);
const at = (day: number, hours = 0) => DAY0 + day * DAY_MS + hours * 3_600_000;

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let store: PgStore;

async function insertSpan(spanId: string, startedAt: number, s: PgStore = store): Promise<number> {
  return s.run(
    `INSERT INTO tool_call_spans (project_id, span_id, run_id, call_id, tool, emitter_id, started_at, ended_at, received_at)
     VALUES ('p', @spanId, 'r', 'c', 't', 1, @startedAt, @startedAt, @startedAt)
     ON CONFLICT (project_id, span_id, started_at) DO NOTHING`,
    { spanId, startedAt },
  );
}

async function insertError(eventId: string, occurredAt: number): Promise<number> {
  return store.run(
    `INSERT INTO tool_errors (project_id, event_id, run_id, call_id, tool, occurred_at, received_at)
     VALUES ('p', @eventId, 'r', 'c', 't', @occurredAt, @occurredAt)
     ON CONFLICT (project_id, event_id, occurred_at) DO NOTHING`,
    { eventId, occurredAt },
  );
}

/** Which partition holds each row of a table, by its id. */
async function placement(table: "tool_call_spans" | "tool_errors"): Promise<Record<string, string>> {
  const id = table === "tool_call_spans" ? "span_id" : "event_id";
  const rows = await store.all<{ id: string; part: string }>(`SELECT ${id} AS id, tableoid::regclass::text AS part FROM ${table} ORDER BY ${id}`);
  return Object.fromEntries(rows.map((r) => [r.id, r.part]));
}

describe.skipIf(!TEST_PG_URL)("daily partitions on PostgreSQL", () => {
  beforeEach(async () => {
    db = await createTestDatabase();
    store = await openPgStore(db.url, { poolMax: 4, migrate: false });
    await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0)");
  });

  afterEach(async () => {
    await store.close();
    await db.drop();
  });

  it("creates one partition per UTC day of the window for both tables, once", async () => {
    expect(await ensurePartitions(store, at(0, 23.5), 2, 3)).toBe(12);
    const parts = await listPartitions(store);
    const days = ["20250108", "20250109", "20250110", "20250111", "20250112", "20250113"];
    expect(parts.map((p) => p.name)).toEqual([
      ...days.map((d) => `tool_call_spans_p${d}`),
      "tool_call_spans_default",
      ...days.map((d) => `tool_errors_p${d}`),
      "tool_errors_default",
    ]);
    expect(parts.find((p) => p.name === "tool_errors_p20250110")).toEqual({ table: "tool_errors", name: "tool_errors_p20250110", fromMs: at(0), toMs: at(1) });
    expect(parts.find((p) => p.name === "tool_call_spans_default")).toMatchObject({ fromMs: null, toMs: null });
    expect(await ensurePartitions(store, at(0, 23.5), 2, 3)).toBe(0);
    // One day later only the new last day is missing.
    expect(await ensurePartitions(store, at(1), 2, 3)).toBe(2);
  });

  it("gives partitions the parent's indexes, keys and idempotency", async () => {
    await ensurePartitions(store, at(0), 0, 0);
    const indexes = await store.all<{ name: string }>(
      `SELECT indexdef AS name FROM pg_indexes WHERE tablename = 'tool_call_spans_p20250110' ORDER BY indexdef`,
    );
    // The primary key and the parent's seven indexes (span, run, tool, code, failed, call, message text).
    expect(indexes).toHaveLength(8);
    expect(await insertSpan("s", at(0, 1))).toBe(1);
    expect(await insertSpan("s", at(0, 1))).toBe(0);
    // Without a target (the form SQLite accepts too) the idempotency index decides as well.
    const untargeted = `INSERT INTO tool_errors (project_id, event_id, run_id, call_id, tool, occurred_at, received_at)
      SELECT 'p', e, 'r', 'c', 't', ${at(0, 2)}, 0 FROM unnest(ARRAY['e1', 'e1', 'e2']) AS e ON CONFLICT DO NOTHING`;
    expect(await store.run(untargeted)).toBe(2);
    expect(await store.run(untargeted)).toBe(0);
    await expect(store.run(`INSERT INTO tool_call_spans (project_id, span_id, run_id, call_id, tool, emitter_id, started_at, ended_at, received_at) VALUES ('nope', 'x', 'r', 'c', 't', 1, ${at(0)}, 0, 0)`)).rejects.toMatchObject({ code: "23503" });
  });

  it("is safe when two nodes run it at the same time", async () => {
    const other = await openPgStore(db.url, { poolMax: 2, migrate: false });
    try {
      const created = await Promise.all([ensurePartitions(store, at(0), 3, 5), ensurePartitions(other, at(0), 3, 5), ensurePartitions(store, at(0), 3, 5)]);
      expect(created.reduce((a, b) => a + b, 0)).toBe(2 * 9);
      expect(await listPartitions(store)).toHaveLength(2 * 10);
    } finally {
      await other.close();
    }
  });

  it("leaves a day whose rows already sit in DEFAULT there, and creates the days without rows", async () => {
    await ensurePartitions(store, at(0), 0, 0);
    await insertSpan("today", at(0, 5));
    await insertSpan("later-a", at(3, 1));
    await insertSpan("much-later", at(9));
    await insertError("e-later", at(3, 2));
    expect(await placement("tool_call_spans")).toEqual({
      "later-a": "tool_call_spans_default",
      "much-later": "tool_call_spans_default",
      today: "tool_call_spans_p20250110",
    });

    // Days 3 and 4: day 3 has rows in DEFAULT in both tables, day 4 none.
    expect(await ensurePartitions(store, at(3), 0, 1)).toBe(2);
    expect((await listPartitions(store)).map((p) => p.name).filter((n) => n.includes("2025011"))).toEqual([
      "tool_call_spans_p20250110",
      "tool_call_spans_p20250114",
      "tool_errors_p20250110",
      "tool_errors_p20250114",
    ]);
    // Day 3 keeps filling DEFAULT, and still refuses a duplicate there; day 4 goes to its partition.
    expect(await insertSpan("later-a", at(3, 1))).toBe(0);
    expect(await insertSpan("later-c", at(3, 4))).toBe(1);
    expect(await insertSpan("next-day", at(4, 1))).toBe(1);
    expect(await placement("tool_call_spans")).toEqual({
      "later-a": "tool_call_spans_default",
      "later-c": "tool_call_spans_default",
      "much-later": "tool_call_spans_default",
      "next-day": "tool_call_spans_p20250114",
      today: "tool_call_spans_p20250110",
    });
    expect(await placement("tool_errors")).toEqual({ "e-later": "tool_errors_default" });
  });

  it("drops only whole expired days, deletes expired DEFAULT rows and counts exactly", async () => {
    await ensurePartitions(store, at(0), 0, 4);
    for (const [id, t] of [["d0a", at(0, 1)], ["d0b", at(0, 2)], ["d0c", at(0, 23)], ["d1a", at(1)], ["d1b", at(1, 10)], ["d2a", at(2, 1)], ["d3a", at(3)]] as const) await insertSpan(id, t);
    await insertError("e0a", at(0, 3));
    await insertError("e0b", at(0, 4));
    await insertError("e2a", at(2, 5));
    // No partition for these days: they sit in the DEFAULT partition.
    await insertSpan("old-a", at(-5));
    await insertSpan("old-b", at(-4, 3));
    await insertError("old-e", at(-7));
    await insertSpan("future", at(30));

    // Mid-day 2: days 0 and 1 are wholly expired, day 2 is not, even though d2a is older than the cutoff.
    expect(await dropExpiredPartitions(store, at(2, 12))).toEqual({ dropped: 4, rows: 3 + 2 + 2 + 2 + 1 });
    expect(Object.keys(await placement("tool_call_spans")).sort()).toEqual(["d2a", "d3a", "future"]);
    expect(Object.keys(await placement("tool_errors"))).toEqual(["e2a"]);
    expect((await listPartitions(store)).map((p) => p.name)).toEqual([
      "tool_call_spans_p20250112",
      "tool_call_spans_p20250113",
      "tool_call_spans_p20250114",
      "tool_call_spans_default",
      "tool_errors_p20250112",
      "tool_errors_p20250113",
      "tool_errors_p20250114",
      "tool_errors_default",
    ]);
    expect(await dropExpiredPartitions(store, at(2, 12))).toEqual({ dropped: 0, rows: 0 });
    // A day ending exactly at the cutoff is expired.
    expect(await dropExpiredPartitions(store, at(3))).toEqual({ dropped: 2, rows: 2 });
  });
});
