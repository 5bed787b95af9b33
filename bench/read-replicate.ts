/**
 * Fast seeding for the large read benchmarks: the database multiplies a seeded base inside itself.
 * Copy k of every run is the base run under the id `<id>~k` (its spans, final errors, told steps,
 * record and per-run rollups, with span, call, event and record ids suffixed the same way) at the same
 * times; the rollups not keyed by run count every copy (their summed columns times the number of
 * copies; earliest/latest sightings and highest attempts are the base's). The result is what
 * ingesting the base `copies` times under those ids stores (test/unit/bench/read-replicate.test.ts
 * compares the two table by table), written in a few statements instead of millions of records.
 */
import { getTableName } from "drizzle-orm";
import type { Store } from "@/db/client";
import { ROLLUP_LIST } from "@/db/rollups/registry";

/**
 * Per-run tables: copied with these id columns suffixed. Call ids too (and the columns naming a
 * call), so a call id stays as selective as a real one (unique to its run), which the drift fold's
 * and the search box's lookups by call id depend on.
 */
const SUFFIXED = new Set(["run_id", "span_id", "event_id", "record_id", "call_id", "after_error", "next_call_id"]);

/** Issue counters (not a declared rollup) that count every failure or run: times the copies. */
const ISSUE_COUNTS: Record<string, string[]> = {
  issues: ["failures", "unrecovered", "retries", "wait_ms", "runs", "worst_hour"],
  issue_hours: ["failures"],
  issue_releases: ["failures"],
};

/** Tables a copy leaves as they are: settings, catalogues and the engines' own bookkeeping. */
// span_emitters: the copies of a run share their emitters, so their rows keep the same emitter ids.
const UNCHANGED = /^(projects|api_keys|span_emitters|alert_rules|issue_events|told_stale|__drizzle_migrations|sqlite_sequence|sqlite_stat\d|.*_fts(_.*)?)$/;

interface Column { name: string; generated: boolean }

async function columnsOf(store: Store, table: string): Promise<Column[]> {
  if (store.dialect === "sqlite") {
    const rows = await store.all<{ name: string; pk: number; hidden: number }>(`SELECT name, pk, hidden FROM pragma_table_xinfo('${table}')`);
    return rows.map((r) => ({ name: r.name, generated: r.hidden !== 0 }));
  }
  const rows = await store.all<{ name: string; generated: string }>(
    "SELECT column_name AS name, is_generated AS generated FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
    [table],
  );
  return rows.map((r) => ({ name: r.name, generated: r.generated === "ALWAYS" }));
}

async function tablesOf(store: Store): Promise<string[]> {
  const rows =
    store.dialect === "sqlite"
      ? await store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      : await store.all<{ name: string }>(
          // Partitions are written through their parent.
          `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`,
        );
  return rows.map((r) => r.name);
}

/** `1 … copies-1` as a row source `k(n)`, in each engine's way. */
const copiesSql = (store: Store, copies: number) =>
  store.dialect === "sqlite"
    ? `(WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${copies - 1}) SELECT n FROM s) k`
    : `generate_series(1, ${copies - 1}) k(n)`;

/**
 * Turns the seeded base into `copies` copies of it (see the module comment). Throws on a non-empty
 * table it does not know how to copy, so a new table cannot be left out silently.
 */
export async function replicateSeed(store: Store, copies: number): Promise<void> {
  if (copies < 2) return;
  const summed = new Map<string, string[]>();
  for (const rollup of ROLLUP_LIST) {
    for (const { table } of rollup.tableList) {
      const cols = rollup.values.filter((v) => v.merge === "sum").map((v) => (table as unknown as Record<string, { name: string }>)[v.name]!.name);
      summed.set(getTableName(table), cols);
    }
  }
  const q = (name: string) => `"${name}"`;
  for (const table of await tablesOf(store)) {
    const cols = await columnsOf(store, table);
    const perRun = cols.some((c) => c.name === "run_id");
    const counts = perRun ? undefined : summed.get(table) ?? ISSUE_COUNTS[table];
    if (perRun) {
      // The generated and auto-numbered columns are the engine's to fill.
      const copied = cols.filter((c) => !c.generated && c.name !== "pk");
      const values = copied.map((c) => (SUFFIXED.has(c.name) ? `CASE WHEN ${q(c.name)} IS NULL THEN NULL ELSE ${q(c.name)} || '~' || k.n END` : q(c.name)));
      await store.run(
        `INSERT INTO ${q(table)} (${copied.map((c) => q(c.name)).join(", ")}) SELECT ${values.join(", ")} FROM ${q(table)} CROSS JOIN ${copiesSql(store, copies)}`,
      );
    } else if (counts) {
      if (counts.length > 0) await store.run(`UPDATE ${q(table)} SET ${counts.map((c) => `${q(c)} = ${q(c)} * ${copies}`).join(", ")}`);
    } else if (!UNCHANGED.test(table) && (await store.get(`SELECT 1 AS one FROM ${q(table)} LIMIT 1`)) !== undefined) {
      throw new Error(`replicateSeed: no rule to copy table ${table}`);
    }
  }
}
