import { attrString } from "./attributes";
import type { OtlpSpan } from "./decode";
import type { ConventionName } from "./conventions";

/**
 * A span no convention recognised but that names a tool, so probably is a tool call whose marker
 * attribute is missing: which convention it seems to follow and the exact marker to add. Spans of
 * another GenAI operation (a `chat` span listing tools) are not tool calls.
 */
export function looksLikeToolCall(s: OtlpSpan): { convention: ConventionName; fix: string } | null {
  const a = s.attributes;
  if (attrString(a, "gen_ai.operation.name") !== null) return null;
  if (a.has("gen_ai.tool.name") || /^execute_tool\b/.test(s.name)) return { convention: "gen_ai", fix: "gen_ai.operation.name=execute_tool" };
  if (a.has("ai.toolCall.name") || a.has("ai.toolCall.id")) return { convention: "vercel_ai", fix: "ai.operationId=ai.toolCall" };
  if ((a.has("tool.name") || a.has("tool_call.id")) && !a.has("openinference.span.kind")) return { convention: "openinference", fix: "openinference.span.kind=TOOL" };
  if (a.has("faultline.outcome") || a.has("faultline.code")) return { convention: "faultline", fix: "faultline.tool" };
  if (/\.tool$/.test(s.name) && a.has("traceloop.entity.name") && !a.has("traceloop.span.kind")) return { convention: "traceloop", fix: "traceloop.span.kind=tool" };
  return null;
}
