import { attrString } from "../attributes";
import type { OtlpSpan } from "../decode";
import type { ToolConvention } from "./convention";
import { FAULTLINE_FIXES, RESOURCE_WHERE } from "./shared-fixes";

const isTool = (s: OtlpSpan) => (attrString(s.attributes, "traceloop.span.kind") ?? "").toLowerCase() === "tool";

/**
 * OpenLLMetry / Traceloop tool spans: `traceloop.span.kind = tool`, the tool's name in
 * `traceloop.entity.name` (only on tool spans: on others it names a workflow, task or agent).
 * It carries no call id and no code; failures are the span status and `exception` events.
 */
export const traceloopConvention: ToolConvention = {
  name: "traceloop",
  recognises: isTool,
  read: (s) => ({ tool: isTool(s) ? attrString(s.attributes, "traceloop.entity.name") : null }),
  fixes: { tool: "traceloop.entity.name", callId: "gen_ai.tool.call.id", message: "exception event (exception.message)", ...FAULTLINE_FIXES },
  setOn: "inside the function wrapped by withTool: trace.getActiveSpan()?.setAttribute(…)",
  fixWhere: RESOURCE_WHERE,
};
