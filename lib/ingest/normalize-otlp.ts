import { scrubText } from "@/lib/contracts";
import type { AgentRunFields } from "@/lib/ingest/otlp/agent-spans";
import type { ToolSpanFields } from "@/lib/ingest/otlp/tool-spans";
import type { RowBatch } from "./rows";

const scrubOrNull = (t: string | null) => (t === null ? null : scrubText(t));

/**
 * Maps extracted OTLP tool spans onto span rows and agent spans onto run records; message text is
 * scrubbed again at ingest. Indexes count tool spans first, then agent spans.
 */
export function normalizeOtlp(tools: readonly ToolSpanFields[], runs: readonly AgentRunFields[], into: RowBatch): RowBatch {
  tools.forEach(({ convention: _convention, ...t }, index) => {
    into.spans.push({ index, row: { ...t, message: scrubOrNull(t.message), source: "otlp" } });
  });
  runs.forEach(({ traceId: _traceId, spanId: _spanId, ...r }, index) => {
    into.runs.push({ index: tools.length + index, row: { ...r, error: scrubOrNull(r.error), source: "otlp" } });
  });
  return into;
}
