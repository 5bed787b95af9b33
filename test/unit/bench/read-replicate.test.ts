import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { ensureDefaultProject } from "@/db/keys";
import { ensurePartitions } from "@/db/partitions";
import type { RowBatch } from "@/lib/ingest/rows";
import { seedRealistic } from "../../../bench/read";
import { replicateSeed } from "../../../bench/read-replicate";
import { DIALECTS, openTestStore } from "../../helpers/stores";

const HOUR = 3_600_000;
const END = Date.UTC(2026, 10, 20, 0, 0, 0);
const COPIES = 3;
const SPANS = 1500;
// Columns holding the moment of writing (or an engine's own numbering), which two stores never share.
const CLOCKS = new Set(["pk", "received_at", "updated_at", "since", "at", "id", "resolved_at", "created_at"]);

const suffix = (v: string | null, k: number) => (v === null || k === 0 ? v : `${v}~${k}`);

/** The batch as the k-th copy of its runs: the ids replicateSeed gives them. */
function copyOf(batch: RowBatch, k: number): RowBatch {
  return {
    drops: [],
    spans: batch.spans.map((s) => ({
      index: s.index,
      row: { ...s.row, runId: suffix(s.row.runId, k)!, spanId: suffix(s.row.spanId, k)!, callId: suffix(s.row.callId, k)!, afterError: suffix(s.row.afterError, k) },
    })),
    toolErrors: batch.toolErrors.map((e) => ({
      index: e.index,
      row: { ...e.row, runId: suffix(e.row.runId, k)!, eventId: suffix(e.row.eventId, k)!, callId: suffix(e.row.callId, k)! },
    })),
    runs: batch.runs.map((r) => ({ index: r.index, row: { ...r.row, runId: suffix(r.row.runId, k)!, recordId: suffix(r.row.recordId, k)! } })),
  };
}

async function tables(store: Store): Promise<string[]> {
  const rows =
    store.dialect === "sqlite"
      ? await store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      : await store.all<{ name: string }>(
          "SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1",
        );
  // Settings made with random keys and the clock, not by the seed.
  return rows.map((r) => r.name).filter((n) => !["__drizzle_migrations", "api_keys", "alert_rules", "projects"].includes(n));
}

/** Every table's rows without their clock columns, sorted: what two stores must agree on. */
async function contents(store: Store): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of await tables(store)) {
    const rows = await store.all<Record<string, unknown>>(`SELECT * FROM "${table}"`);
    out[table] = rows.map((r) => JSON.stringify(Object.entries(r).filter(([k]) => !CLOCKS.has(k)).map(([k, v]) => [k, v === null ? null : String(v)]))).sort();
  }
  return out;
}

describe.each(DIALECTS)("replicateSeed (%s)", (dialect) => {
  const stores: Store[] = [];
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });

  async function fresh(): Promise<Store> {
    const store = await openTestStore(dialect);
    stores.push(store);
    await ensureDefaultProject(store);
    if (store.dialect === "postgres") await ensurePartitions(store, END, 8);
    return store;
  }

  it("stores what ingesting every copy of the seed stores, table by table", async () => {
    const copied = await fresh();
    await seedRealistic(copied, SPANS, END);
    await replicateSeed(copied, COPIES);
    const ingested = await fresh();
    await seedRealistic(ingested, SPANS, END, {
      write: async (batch) => {
        for (let k = 0; k < COPIES; k++) await writeRows(ingested, "default", copyOf(batch, k));
      },
    });
    const [a, b] = [await contents(copied), await contents(ingested)];
    expect(Object.keys(a)).toEqual(Object.keys(b));
    for (const table of Object.keys(a)) expect({ table, rows: a[table] }).toEqual({ table, rows: b[table] });
    const spans = await copied.get<{ n: number }>("SELECT count(*) AS n FROM tool_call_spans");
    expect(Number(spans!.n)).toBe(SPANS * COPIES);
    // The copies are runs of their own, with errors, told texts and failed run records.
    const runs = await copied.get<{ n: number; failed: number }>("SELECT count(*) AS n, sum(CASE WHEN state = 'failed' THEN 1 ELSE 0 END) AS failed FROM runs");
    expect(Number(runs!.n) % COPIES).toBe(0);
    expect(Number(runs!.failed)).toBeGreaterThan(0);
    const told = await copied.get<{ n: number }>("SELECT count(*) AS n FROM tool_errors WHERE told IS NOT NULL AND run_id LIKE '%~2'");
    expect(Number(told!.n)).toBeGreaterThan(0);
    expect(END - HOUR).toBeGreaterThan(0);
  }, 120_000);
});
