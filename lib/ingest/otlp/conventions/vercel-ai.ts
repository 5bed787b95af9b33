import { attrString } from "../attributes";
import type { OtlpSpan } from "../decode";
import type { ToolConvention } from "./convention";
import { FAULTLINE_FIXES, RESOURCE_WHERE } from "./shared-fixes";

const isTool = (s: OtlpSpan) => s.name === "ai.toolCall" || attrString(s.attributes, "ai.operationId") === "ai.toolCall";

/**
 * Vercel AI SDK telemetry (`experimental_telemetry`): `ai.toolCall` spans with `ai.toolCall.name`
 * and `ai.toolCall.id`. A failed tool sets status Error and records an `exception` event whose
 * type is the JavaScript error's name; the SDK has no error code.
 */
export const vercelAiConvention: ToolConvention = {
  name: "vercel_ai",
  recognises: isTool,
  read: (s) => ({ tool: attrString(s.attributes, "ai.toolCall.name"), callId: attrString(s.attributes, "ai.toolCall.id") }),
  fixes: { tool: "ai.toolCall.name", callId: "ai.toolCall.id", message: "exception event (exception.message)", ...FAULTLINE_FIXES },
  setOn: "inside the tool's execute, on the active span (the ai.toolCall span): trace.getActiveSpan()?.setAttribute(…)",
  fixWhere: RESOURCE_WHERE,
};
