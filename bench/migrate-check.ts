/**
 * Checks a storage migration on a populated database: opens TARGET with this checkout's code (applying
 * pending migrations, timed), then compares it with REFERENCE, an unmigrated copy of the same data:
 * row counts of the rebuilt rollup tables and of the spans, rollup sums, and every argument hash read
 * back as hex. Prints the differences found (0 when the data survived).
 *
 *   npx tsx bench/migrate-check.ts REFERENCE TARGET      # SQLite files, or postgres:// URLs
 *
 * docs/ingest-performance.md ("Storage per span") has the run on the 1M-span bench databases.
 */
import Database from "better-sqlite3";
import { performance } from "node:perf_hooks";
import { openStore } from "@/db/client";
import { bytesToHex } from "@/db/schema/hex-bytes";
import { openPgStore } from "@/db/store/pg-store";
const [beforeRef, target] = process.argv.slice(2);
if (!beforeRef || !target) {
  console.error("usage: npx tsx bench/migrate-check.ts REFERENCE TARGET");
  process.exit(2);
}
const t0 = performance.now();
const store = await openStore(target);
console.log(`migrated in ${((performance.now() - t0) / 1000).toFixed(1)} s (${store.dialect})`);
// Every column of runs but the serial pk that sqlite/0034 and postgres/0027 drop.
const RUN_COLUMNS = "project_id, record_id, run_id, agent, release, service, environment, sdk_name, sdk_version, started_at, ended_at, state, deadline_at, max_tool_attempts, error, source, received_at, unanswered_tool_uses, trace_id, span_id";
const tables = ["run_tools", "run_stats", "span_rollups_hourly", "span_rollups_6h", "delay_histograms_hourly", "attempt_counts_hourly", "error_rollups_hourly", "codes", "issue_runs", "drift_calls", "tool_call_spans", "runs", "call_endings_hourly"];
const ref = store.dialect === "sqlite" ? new Database(beforeRef, { readonly: true }) : null;
const refPg = store.dialect === "postgres" ? await openPgStore(beforeRef, { migrate: false }) : null;
const refAll = async <T,>(sql: string): Promise<T[]> => (ref ? (ref.prepare(sql).all() as T[]) : await refPg!.all<T>(sql));
let bad = 0;
for (const t of tables) {
  const a = Number((await refAll<{ n: number }>(`SELECT count(*) AS n FROM ${t}`))[0]!.n);
  const b = Number((await store.get<{ n: number }>(`SELECT count(*) AS n FROM ${t}`))!.n);
  if (a !== b) bad++;
  console.log(`${t.padEnd(26)} before ${a} after ${b}${a === b ? "" : "  DIFFERENT"}`);
}
const sums = "SELECT sum(spans) AS s, sum(duration_sum_ms) AS d, sum(retry_after_sum_ms) AS r FROM span_rollups_hourly";
const [x, y] = [(await refAll<Record<string, number>>(sums))[0]!, (await store.get<Record<string, number>>(sums))!];
console.log("span_rollups_hourly sums", JSON.stringify(x), JSON.stringify(y));
if (JSON.stringify(Object.values(x).map(Number)) !== JSON.stringify(Object.values(y).map(Number))) bad++;
const hashes = "SELECT span_id, args_hash FROM tool_call_spans ORDER BY span_id";
// A reference from before the bytes migration holds hex text; a later one holds the bytes already.
const asHex = (h: string | Buffer | null) => (h === null || typeof h === "string" ? h : bytesToHex(h));
const before = new Map((await refAll<{ span_id: string; args_hash: string | Buffer | null }>(hashes)).map((r) => [r.span_id, asHex(r.args_hash)]));
let compared = 0;
for (const r of await store.all<{ span_id: string; args_hash: Buffer | null }>(hashes)) {
  if (asHex(r.args_hash) !== before.get(r.span_id)) bad++;
  compared++;
}
console.log(`args hashes compared: ${compared}, mismatches and differences: ${bad}`);
// Each span's emitter values (moved to span_emitters by sqlite/0031, postgres/0025), and its pk.
const EMITTER = "tool_version, release, service, environment, sdk_name, sdk_version, source";
const throughDictionary = `SELECT s.pk, s.span_id, ${EMITTER.split(", ").map((c) => `em.${c}`).join(", ")} FROM tool_call_spans s JOIN span_emitters em ON em.id = s.emitter_id`;
// A reference from before the dictionary holds the values on the span; a later one in span_emitters.
const inSpans = await refAll(`SELECT ${EMITTER} FROM tool_call_spans LIMIT 0`).then(() => true, () => false);
const own = new Map(
  (await refAll<Record<string, unknown>>(inSpans ? `SELECT pk, span_id, ${EMITTER} FROM tool_call_spans` : throughDictionary)).map((r) => [r.span_id, JSON.stringify({ ...r, pk: Number(r.pk) })]),
);
let emitterBad = 0;
for (const r of await store.all<Record<string, unknown>>(throughDictionary)) {
  if (JSON.stringify({ ...r, pk: Number(r.pk) }) !== own.get(r.span_id as string)) emitterBad++;
  own.delete(r.span_id as string);
}
emitterBad += own.size;
bad += emitterBad;
const dictionary = Number((await store.get<{ n: number }>("SELECT count(*) AS n FROM span_emitters"))!.n);
console.log(`span emitters: ${dictionary} rows; spans whose pk or emitter values differ or are missing: ${emitterBad}`);
// Every column of every row of the tables rebuilt by sqlite/0033–0034 and postgres/0027 (runs
// without its serial pk), in key order; integers compared as numbers (PostgreSQL returns bigint as text).
const rowsOf = async (sql: string, read: <T>(sql: string) => Promise<T[]>) =>
  (await read<Record<string, unknown>>(sql)).map((r) => JSON.stringify(Object.values(r).map((v) => (typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v))));
const storeAll = <T,>(sql: string) => store.all<T>(sql);
for (const [table, sql] of [
  ["runs", `SELECT ${RUN_COLUMNS} FROM runs ORDER BY project_id, run_id`],
  ["call_endings_hourly", "SELECT * FROM call_endings_hourly ORDER BY project_id, hour, tool, failed, declined, recovered"],
] as const) {
  const [a, b] = [await rowsOf(sql, refAll), await rowsOf(sql, storeAll)];
  const differing = Math.abs(a.length - b.length) + a.filter((row, i) => row !== b[i]).length;
  bad += differing;
  console.log(`${table}: ${b.length} rows compared column by column, differing or missing: ${differing}`);
}
process.exitCode = bad === 0 ? 0 : 1;
await store.close();
await refPg?.close();
ref?.close();
