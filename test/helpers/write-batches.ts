// Records and tables for tests of the write path (db/ingest): batches drawn with repeats from fixed
// sets of spans, errors and run records, and a store's raw and rollup tables read back for comparison.
import { PG_TEXT_COLUMNS } from "@/db/queries/text-search";
import { getTableColumns, getTableName } from "drizzle-orm";
import type { AnySQLiteTable } from "drizzle-orm/sqlite-core";
import type { Store } from "@/db/client";
import { compileRollup, type StoredRow } from "@/db/rollups/compile-rollup";
import { ROLLUP_LIST } from "@/db/rollups/registry";
import { runs } from "@/db/schema/runs";
import { toolCallSpans } from "@/db/schema/tool-call-spans";
import type { RowBatch, RunRow, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { SPANS as SPANS_READ } from "@/test/helpers/spans-read";

export const T = Date.UTC(2026, 10, 1, 9, 0, 0);
const TOOLS = ["cancel_booking", "search", "lookup-customer", "refund", "Send_Email"];
const OUTCOMES = ["ok", "ok", "failed", "declined", "refused", "timed_out", null];

// Every field of a record is a function of its number, so a record sent twice is the same record.
export function span(k: number): SpanRow {
  const outcome = OUTCOMES[k % OUTCOMES.length]!;
  const failed = outcome !== null && outcome !== "ok";
  const startedAt = T + k * 97_000;
  return {
    spanId: `s-${k}`, traceId: null, parentSpanId: null, runId: `run-${k % 30}`, callId: `call-${k >> 1}`, tool: TOOLS[k % TOOLS.length]!,
    toolVersion: k % 4 === 0 ? null : `1.${k % 3}.0`, release: k % 5 === 0 ? null : `2026.${k % 2}`, service: k % 6 === 0 ? null : "agent",
    environment: "prod", sdkName: "bench", sdkVersion: "1", attempt: k % 9 === 0 ? null : (k % 3) + 1, startedAt, startedSubNs: null, endedAt: startedAt + (k % 50) * 7,
    outcome, code: failed && k % 4 !== 1 ? `code_${k % 6}` : null, errorClass: failed ? "ToolFailure" : null, retryable: failed ? k % 2 === 0 : null,
    retryAfterMs: failed && k % 3 === 0 ? 1000 + (k % 7) * 900 : null, backoffMs: failed ? 250 * (k % 11) : null,
    decision: k % 13 === 0 ? "failed_closed" : failed ? "retried" : null, permitted: k % 8 === 0 ? null : k % 8 !== 1, abandoned: k % 10 === 0,
    message: failed ? `failure ${k}` : null, derived: k % 9 === 0 ? "attempt" : null,
    // One hash per call (spans k and k+1 are its attempts), absent on some: repeats, changes and unknowns.
    argsHash: (k >> 1) % 5 === 0 ? null : `a${(k >> 1) % 3}`.repeat(8), afterError: null, source: k % 2 === 0 ? "native" : "otlp",
  };
}

export function toolError(k: number): ToolErrorRow {
  return {
    eventId: `e-${k}`, runId: `run-${k % 30}`, callId: `call-${k}`, tool: TOOLS[k % TOOLS.length]!, toolVersion: null, release: `2026.${k % 2}`,
    service: "agent", environment: null, code: k % 5 === 0 ? null : `code_${k % 6}`, errorClass: k % 3 === 0 ? null : "ToolFailure",
    retryable: k % 4 === 0 ? null : k % 2 === 0, attempts: k % 7 === 0 ? null : (k % 4) + 1, decision: k % 2 === 0 ? "exhausted" : "surfaced",
    told: `told ${k}`, derived: null, occurredAt: T + k * 131_000, source: "native", experiment: null, variant: null,
  };
}

// Each run has a start record and an end record; the end is later than every start, so the
// merged row's start and end are what a recount of run_stats needs.
export function runRecord(k: number): RunRow {
  const j = k >> 1;
  const start = k % 2 === 0;
  return {
    recordId: `rec-${j}-${start ? "start" : "end"}`, runId: `run-${j}`, agent: start ? "planner" : null, release: null, service: null, environment: null,
    sdkName: null, sdkVersion: null, startedAt: start ? T + j * 1000 : null, endedAt: start ? null : T + 40 * 3_600_000 + j, state: start ? "running" : "completed",
    deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "native",
  };
}

export const SPANS = 300;
export const ERRORS = 60;
export const RUN_RECORDS = 60;

/** A batch of records drawn with repeats (some within the batch), in shuffled order. */
export function batchOf(next: () => number, size: number, offset = 0): RowBatch {
  const batch: RowBatch = { spans: [], toolErrors: [], runs: [], drops: [] };
  for (let index = 0; index < size; index++) {
    // Refused tool-like spans are counts without a raw row; a few per batch, drawn without the random stream.
    if (index % 40 === 0) batch.drops!.push({ emitter: { service: index % 80 ? "agent" : null, convention: "gen_ai" }, reason: "no_tool_name", attribute: "gen_ai.tool.name", at: T + index });
    const r = next();
    if (r < 0.75) batch.spans.push({ index, row: span((offset + Math.floor(next() * SPANS)) % SPANS) });
    else if (r < 0.9) batch.toolErrors.push({ index, row: toolError(Math.floor(next() * ERRORS)) });
    else batch.runs.push({ index, row: runRecord(Math.floor(next() * RUN_RECORDS)) });
  }
  return batch;
}

/**
 * A table's rows without its pk, in pk order (raw tables; `runs`, which has none, by its key) or by key
 * (rollups; keys sorted here, not by a collation).
 */
export async function rawRows(store: Store, table: AnySQLiteTable): Promise<Record<string, unknown>[]> {
  const name = getTableName(table);
  const ordered = async () => {
    if (table !== runs) return store.all<Record<string, unknown>>(`SELECT * FROM ${table === toolCallSpans ? SPANS_READ : name} ORDER BY pk`);
    const key = (r: Record<string, unknown>) => `${String(r.project_id)}\u0000${String(r.run_id)}`;
    return (await store.all<Record<string, unknown>>("SELECT * FROM runs")).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  };
  const rows = await ordered();
  // PostgreSQL's generated full-text vector is no stored field of the row.
  const generated: string | undefined = PG_TEXT_COLUMNS[name as keyof typeof PG_TEXT_COLUMNS];
  return rows.map(({ pk: _pk, ...rest }) => Object.fromEntries(Object.entries(rest).filter(([k]) => k !== generated)));
}

/** Every rollup table's rows by field name, each sorted by its declared key. */
export async function rollupRows(store: Store): Promise<Record<string, StoredRow[]>> {
  const out: Record<string, StoredRow[]> = {};
  for (const rollup of ROLLUP_LIST) {
    const { key } = compileRollup(rollup);
    for (const { table } of rollup.tableList) {
      const columns = Object.entries(getTableColumns(table));
      const rows = await store.all<Record<string, string | number>>(`SELECT * FROM ${getTableName(table)}`);
      out[getTableName(table)] = rows
        .map((r) => Object.fromEntries(columns.map(([field, column]) => [field, r[column.name]!])) as StoredRow)
        .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    }
  }
  return out;
}
