import { attrString } from "../attributes";
import type { ToolConvention } from "./convention";
import { FAULTLINE_FIXES, RESOURCE_WHERE } from "./shared-fixes";

/**
 * OpenTelemetry GenAI `execute_tool` spans: `gen_ai.tool.name`, `gen_ai.tool.call.id`, and
 * `error.type` (a code such as `rate_limited`, or an exception class name; split later).
 */
export const genAiConvention: ToolConvention = {
  name: "gen_ai",
  recognises: (s) => attrString(s.attributes, "gen_ai.operation.name") === "execute_tool",
  read: (s) => ({
    tool: attrString(s.attributes, "gen_ai.tool.name"),
    callId: attrString(s.attributes, "gen_ai.tool.call.id"),
    errorType: attrString(s.attributes, "error.type"),
  }),
  fixes: { tool: "gen_ai.tool.name", callId: "gen_ai.tool.call.id", message: "span status message", ...FAULTLINE_FIXES, code: "error.type" },
  setOn: "on the execute_tool span",
  fixWhere: RESOURCE_WHERE,
};
