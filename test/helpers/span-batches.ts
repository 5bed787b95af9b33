// Numbered native batches for the tests that kill a node mid-ingest (two-nodes on PostgreSQL,
// sqlite-kill on SQLite): ids unique per batch, so what a node stored can be counted batch by batch.

/** Where batch 0 starts (an hour ago); batch `n` starts `n` seconds later. */
export const SPAN_BATCH_START = Date.now() - 3_600_000;
const T = SPAN_BATCH_START;
const TOOLS = ["search", "lookup", "book", "cancel", "refund"];
const OUTCOMES = ["ok", "failed", "timed_out", "declined"] as const;

/** Batch `n`: 60 spans over 6 runs, every tool, attempts 1–3; a failed span's code is `code(n, i)` for its index `i`. */
export function spanBatch(n: number, options: { service: string; code: (n: number, i: number) => string }): string {
  const records = Array.from({ length: 60 }, (_, i) => {
    const outcome = OUTCOMES[(n + i) % OUTCOMES.length]!;
    return {
      type: "tool_call_span",
      id: `b${n}-s${i}`,
      run_id: `b${n}-run${i % 6}`,
      call_id: `b${n}-call${Math.floor(i / 3)}`,
      tool: TOOLS[i % TOOLS.length],
      attempt: (i % 3) + 1,
      started_at: T + n * 1000 + i,
      ended_at: T + n * 1000 + i + 40,
      outcome,
      ...(outcome === "ok" ? {} : { code: options.code(n, i), error_class: "ToolFailure", retryable: outcome !== "declined" }),
    };
  });
  return JSON.stringify({ resource: { service: options.service, release: "r1" }, records });
}
