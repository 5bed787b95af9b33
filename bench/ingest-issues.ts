// `npm run bench:ingest -- --issues [--db postgres --url …]`: what the issue hook costs at ingest
// (docs/issues.md). writeRows with 2 concurrent writers on the bench's batches, whose failing
// attempts (failed, refused, timed out: 3 of 7 records, over 5 tools × 12 codes) open and update
// issues, against the very same rows with those attempts sent as `declined`, which opens none: same
// rows, same rollup keys, so the ratio is the issue work (creation once, then per-issue counters,
// releases, hours, runs and the triage check, in the batch's transaction).
import { openPgStore, openStore, type Store } from "../db/client";
import { writeRows } from "../db/ingest/write-rows";
import { CLIENTS, SECONDS, SIZES, WARMUP_SECONDS, closedLoopOf, fmt, records, rowBatch, tmpFile, type BenchRecord } from "./ingest-common";

/** Rounds per case: the two variants take turns, so a change in the machine's load hits both alike. */
const ROUNDS = 5;
const OPENS_ISSUE = new Set(["failed", "refused", "timed_out"]);

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The bench rows, or the same rows with every attempt that would open an issue declined instead. */
const variantRows = (size: number, issues: boolean): BenchRecord[] => records(size).map((r) => (issues || !OPENS_ISSUE.has(r.outcome) ? r : { ...r, outcome: "declined" }));

async function rate(store: Store, rows: BenchRecord[], label: string, next: { n: number }): Promise<number> {
  const r = await closedLoopOf(CLIENTS, async () => {
    const { stored } = await writeRows(store, "p", rowBatch(rows, `${label}-${next.n++}`));
    if (stored !== rows.length) throw new Error(`stored ${stored} of ${rows.length}`);
    return rows.length;
  });
  return r.perSec;
}

/** The issues section: `createPgDatabase` makes a scratch PostgreSQL database (required for "postgres"). */
export async function issuesSection(dialects: readonly ("sqlite" | "postgres")[], createPgDatabase: (() => Promise<string>) | null) {
  console.log(`bench:ingest --issues — ${ROUNDS} alternating rounds of ${SECONDS}s per variant and case after ${WARMUP_SECONDS}s warm-up each, ${CLIENTS} concurrent writers, Node ${process.version}`);
  console.log("writeRows with the issue hook at work (3 of 7 attempts fail) vs the same rows with those attempts declined (no issue); medians of the rounds, [min–max]");
  for (const dialect of dialects) {
    for (const size of SIZES) {
      const open = async () => {
        const url = dialect === "postgres" ? await createPgDatabase!() : tmpFile("issues.db");
        const store = dialect === "postgres" ? await openPgStore(url, { poolMax: CLIENTS }) : await openStore(url);
        await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
        return store;
      };
      const variants = [
        { name: "without", rows: variantRows(size, false), store: await open(), next: { n: 0 }, rates: [] as number[] },
        { name: "with", rows: variantRows(size, true), store: await open(), next: { n: 0 }, rates: [] as number[] },
      ];
      const ratios: number[] = [];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          for (const v of round % 2 ? [...variants].reverse() : variants) v.rates.push(await rate(v.store, v.rows, v.name, v.next));
          ratios.push(variants[1]!.rates[round]! / variants[0]!.rates[round]!);
        }
      } finally {
        await Promise.all(variants.map((v) => v.store.close()));
      }
      const line = (v: (typeof variants)[number]) => `${fmt(median(v.rates)).padStart(7)} events/s [${fmt(Math.min(...v.rates))}–${fmt(Math.max(...v.rates))}]`;
      console.log(
        `${dialect.padEnd(8)} batch=${String(size).padStart(3)}: with issues ${line(variants[1]!)}  without ${line(variants[0]!)}  ratio ${median(ratios).toFixed(2)} [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`,
      );
    }
  }
}
