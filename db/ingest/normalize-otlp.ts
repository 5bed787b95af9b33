import { scrubText } from "@/lib/contracts";
import type { ToolSpanFields } from "@/lib/otlp/tool-spans";
import type { RowBatch } from "./rows";

/** Maps extracted OTLP tool spans onto span rows; message text is scrubbed again at ingest. */
export function normalizeOtlp(tools: readonly ToolSpanFields[], into: RowBatch): RowBatch {
  tools.forEach(({ convention: _convention, ...t }, index) => {
    into.spans.push({
      index,
      row: { ...t, message: t.message === null ? null : scrubText(t.message), source: "otlp" },
    });
  });
  return into;
}
