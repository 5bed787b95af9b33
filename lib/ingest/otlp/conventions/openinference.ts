import { attrString } from "../attributes";
import type { ToolConvention } from "./convention";
import { FAULTLINE_FIXES, RESOURCE_WHERE } from "./shared-fixes";

/**
 * OpenInference (Arize) tool spans: `openinference.span.kind = TOOL`, `tool.name`, `tool_call.id`.
 * Failures are the span status and `exception` events; it has no error code attribute.
 */
export const openInferenceConvention: ToolConvention = {
  name: "openinference",
  recognises: (s) => (attrString(s.attributes, "openinference.span.kind") ?? "").toUpperCase() === "TOOL",
  read: (s) => ({ tool: attrString(s.attributes, "tool.name"), callId: attrString(s.attributes, "tool_call.id") }),
  fixes: { tool: "tool.name", callId: "tool_call.id", message: "exception event (exception.message)", ...FAULTLINE_FIXES },
  setOn: "on the TOOL span: trace.getActiveSpan()?.setAttribute(…) inside the tool function",
  fixWhere: RESOURCE_WHERE,
};
