// `npm run bench:ingest -- --told`: what classifying the errors surfaced to the model costs at
// ingest (see bench/ingest.ts for the command line and docs/after-told.md for the feature).
import { openPgStore, openStore, type Store } from "../db/client";
import { writeRows } from "../db/ingest/write-rows";
import type { RowBatch, RunRow, ToolErrorRow } from "../lib/ingest/rows";
import { CLIENTS, RESOURCE, SECONDS, SIZES, WARMUP_SECONDS, closedLoopOf, fmt, pct, records, rowBatch, sub, tmpFile, type BenchRecord } from "./ingest-common";

/**
 * The told bench's batch `n`: the bench rows with argument hashes, one final error per failing span
 * (surfaced with a told text, or failing the run with none), runs shared by batches 2k and 2k+1 (two
 * writers then ingest pieces of one run at once), whose ends come in the second batch.
 */
export function toldBatch(rows: BenchRecord[], n: number, surfaced: boolean): RowBatch {
  const pair = `told-${surfaced ? "s" : "f"}-${n >> 1}`;
  const part = `${pair}-${n & 1}`;
  const runOf = (r: BenchRecord) => sub(r.run_id, pair);
  const base = rowBatch(rows, part);
  for (const { row } of base.spans) {
    row.runId = row.runId.replace(part, pair);
    row.argsHash = (row.callId.length % 2 ? "a" : "b").repeat(16);
  }
  const toolErrors = rows.flatMap((r, i): { index: number; row: ToolErrorRow }[] =>
    r.outcome === "ok"
      ? []
      : [{
          index: rows.length + i,
          row: {
            eventId: `e-${sub(r.id, part)}`, runId: runOf(r), callId: sub(r.call_id, part), tool: r.tool, toolVersion: r.tool_version, release: RESOURCE.release,
            service: RESOURCE.service, environment: null, code: r.code, errorClass: r.error_class, retryable: r.retryable, attempts: r.attempt,
            decision: surfaced ? "surfaced" : "failed_run", told: surfaced ? `error: ${r.code}: the booking ${i} could not be changed (retry in ${i % 5}s)` : null,
            derived: null, occurredAt: r.ended_at, source: "native", experiment: null, variant: null,
          },
        }],
  );
  const runs = n & 1 ? [...new Set(rows.map(runOf))].map((runId, i): { index: number; row: RunRow } => ({
    index: 2 * rows.length + i,
    row: {
      recordId: `${runId}-end`, runId, agent: "bench-agent", release: RESOURCE.release, service: RESOURCE.service, environment: null, sdkName: RESOURCE.sdk.name,
      sdkVersion: RESOURCE.sdk.version, startedAt: rows[0]!.started_at, endedAt: rows[rows.length - 1]!.ended_at + 1000, state: surfaced ? "completed" : "failed",
      deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "native",
    },
  })) : [];
  return { spans: base.spans, toolErrors, runs };
}

/** Events/s (records of every kind) through writeRows of the told bench's batches, CLIENTS writers at once; `next` numbers the batches across calls. */
async function toldRate(store: Store, size: number, surfaced: boolean, next: { n: number }): Promise<{ perSec: number; latencies: number[] }> {
  // A batch of one is one failing call (the bench's first record is an ok one, with nothing to classify).
  const rows = size === 1 ? records(4).slice(3) : records(size);
  return closedLoopOf(CLIENTS, async () => {
    const batch = toldBatch(rows, next.n++, surfaced);
    await writeRows(store, "p", batch);
    return batch.spans.length + batch.toolErrors.length + batch.runs.length;
  });
}

/** Rounds per case: the two variants take turns, so a change in the machine's load hits both alike. */
const TOLD_ROUNDS = 3;

/** The told section: `createPgDatabase` makes a scratch PostgreSQL database (required for "postgres"). */
export async function toldSection(dialects: readonly ("sqlite" | "postgres")[], createPgDatabase: (() => Promise<string>) | null) {
  console.log(`bench:ingest --told — ${TOLD_ROUNDS} alternating rounds of ${SECONDS}s per variant and case after ${WARMUP_SECONDS}s warm-up each, ${CLIENTS} concurrent writers, Node ${process.version}`);
  console.log("writeRows of batches whose failing calls end in surfaced errors (classified at ingest) vs the same rows with errors not surfaced");
  for (const dialect of dialects) {
    for (const size of SIZES) {
      const open = async () => {
        const url = dialect === "postgres" ? await createPgDatabase!() : tmpFile("told.db");
        const store = dialect === "postgres" ? await openPgStore(url, { poolMax: CLIENTS }) : await openStore(url);
        await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'p', 0) ON CONFLICT DO NOTHING");
        return store;
      };
      const variants = [
        { surfaced: false, store: await open(), next: { n: 0 }, perSec: 0, latencies: [] as number[] },
        { surfaced: true, store: await open(), next: { n: 0 }, perSec: 0, latencies: [] as number[] },
      ];
      try {
        for (let round = 0; round < TOLD_ROUNDS; round++) {
          for (const v of round % 2 ? [...variants].reverse() : variants) {
            const r = await toldRate(v.store, size, v.surfaced, v.next);
            v.perSec += r.perSec / TOLD_ROUNDS;
            v.latencies.push(...r.latencies);
          }
        }
      } finally {
        await Promise.all(variants.map((v) => v.store.close()));
      }
      const [without, withTold] = variants.map((v) => ({ ...v, latencies: v.latencies.sort((a, b) => a - b) }));
      const line = (v: typeof without) => `${fmt(v!.perSec).padStart(7)} events/s (p50 ${pct(v!.latencies, 50).toFixed(1)} ms, p99 ${pct(v!.latencies, 99).toFixed(1)} ms)`;
      console.log(`${dialect.padEnd(8)} batch=${String(size).padStart(3)}: surfaced ${line(withTold)}  not surfaced ${line(without)}  ratio ${(withTold!.perSec / without!.perSec).toFixed(2)}`);
    }
  }
}
