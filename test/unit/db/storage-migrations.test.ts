import { getTableName } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { Dialect, Store } from "@/db/client";
import { spanInsert } from "@/db/ingest/statements";
import { getRunTimeline } from "@/db/queries/get-run-timeline";
import { ROLLUP_LIST } from "@/db/rollups/registry";
import { bytesToHex, hexToBytes } from "@/db/schema/hex-bytes";
import { writeRows } from "@/db/ingest/write-rows";
import type { SpanRow } from "@/lib/ingest/rows";
import { insertLegacySpans } from "../../helpers/legacy-spans";
import { spanRow } from "../../helpers/rows";
import { SPANS } from "../../helpers/spans-read";
import { upgradedStore } from "../../helpers/migrate-before";
import { DIALECTS } from "../../helpers/stores";

// The storage migrations of issue 31 keep every stored row: argument hashes stored as hex text become
// the bytes the ingest writes today (and read back as the same hex), and SQLite's rollup tables,
// rebuilt WITHOUT ROWID, keep their rows and indexes.

const T0 = Date.UTC(2026, 10, 3, 12, 0, 0);

// Hashes of every length class the wire accepts: whole bytes (64, 16 and 8 digits) and odd counts.
const HASHES = ["0123456789abcdef".repeat(4), "00ff00ff00ff00ff", "deadbeef", "abcdef012", "f".repeat(63), null] as const;

const spanValues = (i: number, hash: string | null) =>
  `('p', 's${i}', 'r1', 'c${i}', 'search', 1, ${T0 + i}, ${T0 + i + 10}, 'ok', 'native', ${T0}, ${hash === null ? "NULL" : `'${hash}'`})`;

const RUN_TOOLS = [["p", "book", "r1"], ["p", "search", "r1"], ["p", "search", "r2"]];
const SPAN_ROLLUP = { hour: T0, tool: "search", spans: 6, duration_sum_ms: 60 };

async function seedBefore(store: Store): Promise<void> {
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0)");
  await store.run(
    `INSERT INTO tool_call_spans (project_id, span_id, run_id, call_id, tool, attempt, started_at, ended_at, outcome, source, received_at, args_hash)
     VALUES ${HASHES.map((h, i) => spanValues(i, h)).join(", ")}`,
  );
  await store.run(`INSERT INTO run_tools (project_id, tool, run_id) VALUES ${RUN_TOOLS.map((r) => `('${r.join("', '")}')`).join(", ")}`);
  await store.run(
    `INSERT INTO run_stats (project_id, run_id, attempts, calls, retries, failed_attempts, declined, refused, errors, first_started_at, last_ended_at, agent, release)
     VALUES ('p', 'r1', 6, 6, 0, 0, 0, 0, 0, ${T0}, ${T0 + 20}, 'agent', '1.0')`,
  );
  await store.run(
    `INSERT INTO span_rollups_hourly (project_id, hour, tool, code, outcome, error_class, release, service, environment, spans, first_attempts, second_attempts,
       retry_attempts, unnumbered, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, failed_closed, duration_sum_ms)
     VALUES ('p', ${SPAN_ROLLUP.hour}, '${SPAN_ROLLUP.tool}', '', 'ok', '', '', '', 'prod', ${SPAN_ROLLUP.spans}, 6, 0, 0, 0, 1, 0, 0, 0, 0, 0, ${SPAN_ROLLUP.duration_sum_ms})`,
  );
}

/**
 * The rollup tables and per-run keys that migrations 0027 and 0033 (call_endings_hourly) rebuild
 * WITHOUT ROWID on SQLite: every rollup but run_stats, which the runs list reads through a secondary
 * index (a rowid lookup is cheaper), and run_codes, whose code filter was slower clustered.
 */
const ROWID_ROLLUPS = ["run_stats", "run_codes"];
const WITHOUT_ROWID = [
  ...ROLLUP_LIST.flatMap((r) => r.tableList.map((t) => getTableName(t.table))).filter((name) => !ROWID_ROLLUPS.includes(name)),
  "issue_runs", "issue_hours", "issue_releases", "drift_calls", "drift_counts", "runs",
];

describe("hex stored as bytes", () => {
  it("reads back every hash exactly, whole bytes or not, and spends half the digits on whole bytes", () => {
    for (let digits = 8; digits <= 64; digits++) {
      const hex = Array.from({ length: digits }, (_, i) => "0123456789abcdef"[(i * 7 + digits) % 16]).join("");
      const bytes = hexToBytes(hex);
      expect(bytes.length).toBe(digits % 2 === 0 ? digits / 2 : 33);
      expect(bytesToHex(bytes)).toBe(hex);
    }
    // An odd hash padded with zeros is not the even hash it resembles.
    expect(hexToBytes("abcdef012").equals(hexToBytes("abcdef0120"))).toBe(false);
  });
});

describe.each(DIALECTS)("the storage migrations on a populated database (%s)", (dialect: Dialect) => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  // Before the first of this change's migrations on each engine: both apply on the upgrade.
  async function migratedStore(): Promise<Store> {
    const { store, drop } = await upgradedStore(dialect, dialect === "sqlite" ? "_rollups_without_rowid" : "_args_hash_bytes", seedBefore);
    cleanup = drop;
    return store;
  }

  it("converts each stored argument hash to the bytes ingest writes, read back as the same hex", async () => {
    const store = await migratedStore();
    try {
      const stored = await store.all<{ spanId: string; hash: Buffer | null }>("SELECT span_id AS \"spanId\", args_hash AS hash FROM tool_call_spans ORDER BY span_id");
      expect(stored.map((r) => r.spanId)).toEqual(HASHES.map((_, i) => `s${i}`));
      for (const [i, hash] of HASHES.entries()) {
        const bytes = stored[i]!.hash;
        if (hash === null) {
          expect(bytes).toBeNull();
          continue;
        }
        expect(Buffer.isBuffer(bytes)).toBe(true);
        expect(bytes!.equals(hexToBytes(hash))).toBe(true);
        expect(bytesToHex(bytes!)).toBe(hash);
      }
      // A span ingested after the migration with a migrated span's hash stores the same bytes.
      const context = { projectId: "p", receivedAt: T0 };
      const fresh = spanRow({ spanId: "fresh", runId: "r1", callId: "c9", tool: "search", attempt: 1, startedAt: T0 + 100, endedAt: T0 + 110, argsHash: HASHES[3] });
      const freshRow = { ...fresh, emitterId: 1 };
      if (store.dialect === "sqlite") await store.run(spanInsert.sql, spanInsert.bind(context, freshRow));
      else await store.all(spanInsert.pgSql, spanInsert.columns(context, [freshRow]));
      const same = await store.all<{ spanId: string }>(
        "SELECT span_id AS \"spanId\" FROM tool_call_spans WHERE args_hash = (SELECT args_hash FROM tool_call_spans WHERE span_id = 'fresh') ORDER BY span_id",
      );
      expect(same.map((r) => r.spanId)).toEqual(["fresh", "s3"]);
    } finally {
      await store.close();
    }
  }, 60_000);

  it("keeps the rollup rows, and on SQLite stores each rollup once, clustered on its key", async () => {
    const store = await migratedStore();
    try {
      expect(await store.all("SELECT project_id, tool, run_id FROM run_tools ORDER BY tool, run_id")).toEqual(
        RUN_TOOLS.map(([project_id, tool, run_id]) => ({ project_id, tool, run_id })),
      );
      expect(await store.all("SELECT run_id, attempts, first_started_at, last_ended_at, agent, release FROM run_stats")).toEqual([
        { run_id: "r1", attempts: 6, first_started_at: T0, last_ended_at: T0 + 20, agent: "agent", release: "1.0" },
      ]);
      expect(await store.all("SELECT hour, tool, spans, duration_sum_ms FROM span_rollups_hourly")).toEqual([SPAN_ROLLUP]);
      if (store.dialect !== "sqlite") {
        // postgres/0028: the rollups whose rows every batch updates leave room for HOT updates.
        const options = await store.all("SELECT relname, reloptions FROM pg_class WHERE reloptions IS NOT NULL AND relkind = 'r' AND relnamespace = 'public'::regnamespace ORDER BY relname");
        expect(options).toEqual(
          ["attempt_counts_6h", "attempt_counts_hourly", "call_endings_hourly", "span_rollups_6h", "span_rollups_hourly"].map((relname) => ({ relname, reloptions: ["fillfactor=70"] })),
        );
        return;
      }
      const tables = await store.all<{ name: string; wr: number }>("SELECT name, wr FROM pragma_table_list WHERE schema = 'main'");
      const rowidless = new Set(tables.filter((t) => t.wr === 1).map((t) => t.name));
      for (const name of WITHOUT_ROWID) expect(rowidless.has(name), name).toBe(true);
      for (const name of ROWID_ROLLUPS) expect(rowidless.has(name), name).toBe(false);
      // The secondary indexes the rebuilt tables had before (issue_runs' run index is dropped by a later migration, 0032).
      const indexes = await store.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('run_stats', 'issue_runs') AND sql IS NOT NULL ORDER BY name");
      expect(indexes.map((i) => i.name)).toEqual(["run_stats_project_started_idx"]);
      const plan = await store.all<{ detail: string }>("EXPLAIN QUERY PLAN SELECT run_id FROM run_tools WHERE project_id = 'p' AND tool = 'search'");
      expect(plan.map((p) => p.detail).join("\n")).toMatch(/SEARCH run_tools USING PRIMARY KEY \(project_id=\? AND tool=\?\)/);
    } finally {
      await store.close();
    }
  }, 60_000);
});

// Migration sqlite/0030, postgres/0024: the run index keyed by (project, run) alone keeps every span
// and still serves a run's spans, in the timeline's order.
describe.each(DIALECTS)("the run index without its timestamp, on a populated database (%s)", (dialect: Dialect) => {
  it("keeps every span and reads each run's spans through the narrower index, in start order", async () => {
    const seed = async (store: Store) => {
      await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0)");
      // Two runs interleaved in time, inserted out of start order.
      const values = [3, 0, 5, 1, 4, 2].map((i) => `('p', 's${i}', 'r${i % 2}', 'c${i}', 'search', 1, ${T0 + 1000 - i * 100}, ${T0 + 1000 - i * 100 + 10}, 'ok', 'native', ${T0})`);
      await store.run(
        `INSERT INTO tool_call_spans (project_id, span_id, run_id, call_id, tool, attempt, started_at, ended_at, outcome, source, received_at) VALUES ${values.join(", ")}`,
      );
    };
    const { store, drop } = await upgradedStore(dialect, "_spans_run_idx_keys", seed);
    try {
      expect(await store.all("SELECT span_id, run_id FROM tool_call_spans ORDER BY span_id")).toEqual(
        [0, 1, 2, 3, 4, 5].map((i) => ({ span_id: `s${i}`, run_id: `r${i % 2}` })),
      );
      const timeline = await getRunTimeline(store, "p", "r0", { limit: 1000 });
      expect(timeline?.calls.map((c) => c.callId)).toEqual(["c4", "c2", "c0"]);
      if (store.dialect === "sqlite") {
        const columns = await store.all<{ name: string }>("SELECT name FROM pragma_index_info('spans_project_run_idx') ORDER BY seqno");
        expect(columns.map((c) => c.name)).toEqual(["project_id", "run_id"]);
        const plan = await store.all<{ detail: string }>("EXPLAIN QUERY PLAN SELECT span_id FROM tool_call_spans WHERE project_id = 'p' AND run_id = 'r0' ORDER BY started_at");
        expect(plan.map((p) => p.detail).join("\n")).toMatch(/SEARCH tool_call_spans USING INDEX spans_project_run_idx \(project_id=\? AND run_id=\?\)/);
      } else {
        const defs = await store.all<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'spans_project_run_idx'");
        expect(defs.map((d) => d.indexdef)).toEqual(["CREATE INDEX spans_project_run_idx ON ONLY public.tool_call_spans USING btree (project_id, run_id)"]);
      }
    } finally {
      await store.close();
      await drop();
    }
  }, 60_000);
});

// Migration sqlite/0031, postgres/0025: what a span shares with its emitter moves to span_emitters.
describe.each(DIALECTS)("the emitter dictionary, on a populated database (%s)", (dialect: Dialect) => {
  // Values that must stay apart: NULL and '', and strings JSON escapes.
  const emitters: Partial<SpanRow>[] = [
    { toolVersion: "1.0.0", release: null, service: "agent", environment: "prod", sdkName: "faultline-runtime", sdkVersion: "0.1.0", source: "native" },
    { toolVersion: "1.0.0", release: "", service: "agent", environment: "prod", sdkName: "faultline-runtime", sdkVersion: "0.1.0", source: "native" },
    { toolVersion: null, release: null, service: null, environment: null, sdkName: null, sdkVersion: null, source: "otlp" },
    { toolVersion: "2.0 \"beta\"", release: "r\\1\n", service: "ägent", environment: "prod", sdkName: null, sdkVersion: "0.2", source: "native" },
  ];
  const spans = Array.from({ length: 12 }, (_, i) =>
    spanRow({
      spanId: `s${i}`, runId: `r${i % 3}`, callId: `c${i}`, tool: "search", attempt: 1, startedAt: T0 + i * 1000, endedAt: T0 + i * 1000 + 10,
      message: i % 4 === 0 ? `quota exceeded ${i}` : null, outcome: i % 4 === 0 ? "failed" : "ok", ...emitters[i % emitters.length],
    }),
  );

  it("keeps every span with its emitter's values, one dictionary row per distinct emitter, the text search and the pk counter", async () => {
    const { store, drop } = await upgradedStore(dialect, "_span_emitters", async (old) => {
      await old.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0)");
      await insertLegacySpans(old, { projectId: "p", receivedAt: T0 }, spans);
    });
    try {
      const stored = await store.all<Record<string, unknown>>(
        `SELECT pk, span_id, tool_version, release, service, environment, sdk_name, sdk_version, source FROM ${SPANS} ORDER BY pk`,
      );
      expect(stored).toEqual(
        spans.map((s, i) => ({
          pk: i + 1, span_id: s.spanId, tool_version: s.toolVersion, release: s.release, service: s.service, environment: s.environment,
          sdk_name: s.sdkName, sdk_version: s.sdkVersion, source: s.source,
        })),
      );
      expect(await store.all("SELECT count(*) AS n FROM span_emitters")).toEqual([{ n: emitters.length }]);
      // Text search still finds the migrated messages, and only those.
      const found =
        store.dialect === "sqlite"
          ? await store.all<{ id: number }>("SELECT rowid AS id FROM span_message_fts WHERE span_message_fts MATCH 'quota' ORDER BY rowid")
          : await store.all<{ id: number }>("SELECT pk AS id FROM tool_call_spans WHERE message_tsv @@ to_tsquery('simple', 'quota') ORDER BY pk");
      expect(found.map((r) => Number(r.id))).toEqual([1, 5, 9]);
      if (store.dialect === "postgres") {
        // A span without a message stores no vector.
        expect(await store.all("SELECT count(*) AS n FROM tool_call_spans WHERE message_tsv IS NULL")).toEqual([{ n: 9 }]);
      }
      // Ingest finds the migrated rows by the same key (JSON.stringify against json_array / array_to_json) and adds none.
      const later = spans.map((s, i) => ({ index: i, row: { ...s, spanId: `n${i}`, callId: `n${i}` } }));
      await writeRows(store, "p", { spans: later, toolErrors: [], runs: [] }, T0);
      expect(await store.all("SELECT count(*) AS n FROM span_emitters")).toEqual([{ n: emitters.length }]);
      const pairs = await store.all<{ a: number; b: number }>(
        "SELECT o.emitter_id AS a, n.emitter_id AS b FROM tool_call_spans o JOIN tool_call_spans n ON n.span_id = 'n' || substr(o.span_id, 2) WHERE o.span_id LIKE 's%' ORDER BY o.pk",
      );
      expect(pairs.map((r) => Number(r.a))).toEqual(pairs.map((r) => Number(r.b)));
      // New spans number after the migrated ones.
      expect(await store.all("SELECT min(pk) AS pk FROM tool_call_spans WHERE span_id LIKE 'n%'")).toEqual([{ pk: spans.length + 1 }]);
    } finally {
      await store.close();
      await drop();
    }
  }, 60_000);
});
