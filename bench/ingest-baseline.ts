// The raw baseline of `bench:ingest`'s HTTP ratio: what the database alone costs for what an ingest
// request stores. Each batch is one transaction writing the same span rows, the same failure-fact rows
// and the same rollup rows (every rollup table, merged per key as the ingest merges them) that the
// HTTP request of the same records writes, with the ingest's own statements, but none of the work
// around them (HTTP, auth, parsing, validation, normalising, classification, planning, the issue
// hook). The statements' parameters are computed once from a template batch; each batch only swaps
// its ids in and moves its times on, so run-keyed rollup rows are new per batch and hour-keyed ones are shared, as in ingest.
import pg from "pg";
import { openStore, openPgStore, type Store } from "../db/client";
import { factInsert, writtenFactRows } from "../db/ingest/fact-rows";
import { ingestStatements, spanInsert } from "../db/ingest/statements";
import { emitterIdsPg, emitterIdsSqlite, LearnedEmitters } from "../db/ingest/span-emitters";
import { pgTx } from "../db/ingest/pg-named";
import { tally } from "../db/ingest/tally";
import { rollupStatements } from "../db/rollups/write-rollup";
import { rollupsStatement } from "../db/rollups/write-rollup-pg";
import { classifyRows } from "../lib/classify/classify-rows";
import { nativeFormat } from "../lib/ingest/formats/native";
import type { RowBatch } from "../lib/ingest/rows";
import { rulesetFor } from "../server/ingest/rulesets";
import { RESOURCE, batchValues, records, timeShift } from "./ingest-common";

/** The template batch as the native format normalises and classifies it, every row new. */
async function templateRows(store: Store, size: number): Promise<{ rows: RowBatch; written: { spans: Uint8Array; toolErrors: Uint8Array; runs: Uint8Array } }> {
  const envelope = nativeFormat.parse(new TextEncoder().encode(JSON.stringify({ resource: RESOURCE, records: records(size).map((r) => ({ type: "tool_call_span", ...r })) })), "application/json");
  const { rows } = nativeFormat.normalize(envelope);
  classifyRows(rows.spans, await rulesetFor(store, "p"));
  const written = { spans: new Uint8Array(rows.spans.length).fill(1), toolErrors: new Uint8Array(0), runs: new Uint8Array(0) };
  return { rows, written };
}

export interface RawWriter {
  /** Writes the n-th batch (its own transaction): new ids, times moved on; resolves to the rows it stored. */
  write(n: number): Promise<number>;
  close(): Promise<void>;
}

/** How the server opens its SQLite store (server/store.ts): the baseline and the in-process bench open theirs alike. */
export const SERVER_SQLITE = { checkpointInBackground: true } as const;

/** SQLite: the ingest's prepared statements, bound row by row in one immediate transaction per batch. */
export async function rawSqliteWriter(file: string, size: number): Promise<RawWriter> {
  // Opened as the server opens its store (server/store.ts), checkpoints on a worker thread included.
  const store = await openStore(file, SERVER_SQLITE);
  if (store.dialect !== "sqlite") throw new Error("expected a SQLite store");
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
  const { rows, written } = await templateRows(store, size);
  const st = ingestStatements(store.sqlite);
  const context = { projectId: "p", receivedAt: 0 };
  // The spans' emitter row is written once here: ingest finds it in its per-process map after the first batch.
  const stored = await store.transactionSync(() => emitterIdsSqlite(store.sqlite, "p", rows.spans, new LearnedEmitters(store.sqlite)));
  const spans = stored.map((row) => [...spanInsert.bind(context, row)]);
  const facts = writtenFactRows(rows, written.spans).map((f) => [...factInsert.bind({ projectId: "p" }, f)]);
  const rollups: { statement: { run(args: unknown[]): unknown }; args: unknown[] }[] = [];
  for (const batch of tally("p", rows, written).aggregates.all()) {
    if (batch.size === 0) continue;
    const { fields, bind, upserts } = rollupStatements(store.sqlite, batch.rollup);
    batch.rollup.tableList.forEach((table, i) => {
      for (const row of batch.rowsFor(table)) {
        const args: (string | number)[] = new Array(fields.length);
        bind(row, args);
        rollups.push({ statement: upserts[i]!, args });
      }
    });
  }
  return {
    write: (n) => {
      const batch = `raw-${n}`;
      const shift = timeShift(n, size);
      return store.transactionSync(() => {
        let stored = 0;
        for (const args of spans) stored += st.insertSpan.run(batchValues(args, batch, shift)).changes;
        for (const args of facts) st.insertFact.run(batchValues(args, batch, shift));
        for (const r of rollups) r.statement.run(batchValues(r.args, batch, shift));
        return stored;
      });
    },
    close: () => store.close(),
  };
}

/** PostgreSQL: the ingest's multi-row statements (spans, facts, the combined rollup upsert), one transaction per batch. */
export async function rawPgWriter(url: string, size: number, connections: number): Promise<RawWriter> {
  const store = await openPgStore(url, { poolMax: 1 });
  await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
  const { rows, written } = await templateRows(store, size);
  const stored = await store.transaction((tx) => emitterIdsPg(pgTx(tx), store, "p", rows.spans, new LearnedEmitters(store)));
  await store.close();
  const context = { projectId: "p", receivedAt: 0 };
  const statements: { name: string; text: string; values: unknown[] }[] = [
    { name: "raw_spans", text: spanInsert.pgSql, values: spanInsert.columns(context, stored) },
    { name: "raw_facts", text: factInsert.pgSql, values: factInsert.columns({ projectId: "p" }, writtenFactRows(rows, written.spans)) },
  ];
  const rollup = rollupsStatement(tally("p", rows, written).aggregates.all());
  if (rollup) statements.push({ name: "raw_rollups", text: rollup.sql, values: rollup.params });
  const pool = new pg.Pool({ connectionString: url, max: connections });
  return {
    async write(n) {
      const batch = `raw-${n}`;
      const shift = timeShift(n, size);
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        let stored = 0;
        for (const s of statements) {
          const r = await client.query({ name: s.name, text: s.text, values: batchValues(s.values, batch, shift) });
          if (s.name === "raw_spans") stored = r.rowCount ?? 0;
        }
        await client.query("COMMIT");
        return stored;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
