// `npm run bench:ingest -- --search [--db postgres --url …]` — what keeping the full-text index
// (docs/search.md) costs at ingest: writeRows with 2 concurrent writers of the told bench's batches,
// each failing attempt carrying an error message and each final error a told text, into a store with
// the index against one without it (the same migrations, then the index dropped). Same rows, same
// rollups; the two take turns, round by round, so a change in the machine's load hits both alike.
import { openPgStore, openStore, type Store } from "../db/client";
import { writeRows } from "../db/ingest/write-rows";
import { CLIENTS, SECONDS, SIZES, WARMUP_SECONDS, closedLoopOf, fmt, pct, records, tmpFile } from "./ingest-common";
import { toldBatch } from "./ingest-told";

const ROUNDS = 3;

// The index's objects as the migrations create them (sqlite 0019, postgres 0014); the bench's
// "without" store drops them. Bench-only SQL: nothing in the app ever removes the index.
const DROP_INDEX = {
  sqlite: [
    ...["ai", "ad", "au"].flatMap((t) => [`DROP TRIGGER span_message_fts_${t}`, `DROP TRIGGER told_text_fts_${t}`]),
    "DROP TABLE span_message_fts",
    "DROP TABLE told_text_fts",
  ],
  postgres: ["ALTER TABLE tool_call_spans DROP COLUMN message_tsv", "ALTER TABLE tool_errors DROP COLUMN told_tsv"],
};

async function searchRate(store: Store, size: number, next: { n: number }) {
  const rows = size === 1 ? records(4).slice(3) : records(size);
  return closedLoopOf(CLIENTS, async () => {
    const n = next.n++;
    const batch = toldBatch(rows, n, true);
    for (const { row } of batch.spans) {
      if (row.outcome !== "ok") row.message = `${row.code ?? "error"}: upstream booking service answered 503 for request ${n}-${row.callId} after ${row.attempt ?? 1} tries; retry later`;
    }
    await writeRows(store, "p", batch);
    return batch.spans.length + batch.toolErrors.length + batch.runs.length;
  });
}

/** The search section: `createPgDatabase` makes a scratch PostgreSQL database (required for "postgres"). */
export async function searchSection(dialects: readonly ("sqlite" | "postgres")[], createPgDatabase: (() => Promise<string>) | null) {
  console.log(`bench:ingest --search — ${ROUNDS} alternating rounds of ${SECONDS}s per variant and case after ${WARMUP_SECONDS}s warm-up each, ${CLIENTS} concurrent writers, Node ${process.version}`);
  console.log("writeRows of batches with error messages and told texts, into a store with the full-text index vs the same store without it");
  for (const dialect of dialects) {
    for (const size of SIZES) {
      const open = async (indexed: boolean) => {
        const url = dialect === "postgres" ? await createPgDatabase!() : tmpFile("search.db");
        const store = dialect === "postgres" ? await openPgStore(url, { poolMax: CLIENTS }) : await openStore(url);
        await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
        if (!indexed) for (const sql of DROP_INDEX[dialect]) await store.run(sql);
        return store;
      };
      const variants = [
        { indexed: false, store: await open(false), next: { n: 0 }, perSec: 0, latencies: [] as number[], rates: [] as number[] },
        { indexed: true, store: await open(true), next: { n: 0 }, perSec: 0, latencies: [] as number[], rates: [] as number[] },
      ];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          for (const v of round % 2 ? [...variants].reverse() : variants) {
            const r = await searchRate(v.store, size, v.next);
            v.perSec += r.perSec / ROUNDS;
            v.rates.push(r.perSec);
            v.latencies.push(...r.latencies);
          }
        }
      } finally {
        await Promise.all(variants.map((v) => v.store.close()));
      }
      const [without, indexed] = variants.map((v) => ({ ...v, latencies: v.latencies.sort((a, b) => a - b) }));
      const line = (v: typeof without) => `${fmt(v!.perSec).padStart(7)} events/s (p50 ${pct(v!.latencies, 50).toFixed(1)} ms, p99 ${pct(v!.latencies, 99).toFixed(1)} ms)`;
      const ratios = indexed!.rates.map((r, i) => r / without!.rates[i]!);
      console.log(
        `${dialect.padEnd(8)} batch=${String(size).padStart(3)}: indexed ${line(indexed)}  without ${line(without)}  ratio ${(indexed!.perSec / without!.perSec).toFixed(2)} (rounds ${ratios.map((r) => r.toFixed(2)).join(", ")})`,
      );
    }
  }
}
