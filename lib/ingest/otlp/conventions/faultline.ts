import { ERROR_CLASSES, LIMITS, OUTCOMES } from "@/lib/contracts";
import type { OtlpSpan } from "../decode";
import { isToolErrorRecord } from "../agent-spans";
import { bool, id, int, oneOf, text } from "../strict-attributes";
import type { ToolConvention } from "./convention";
import { FAULTLINE_FIXES, RESOURCE_WHERE } from "./shared-fixes";

const marks = (s: OtlpSpan) => s.attributes.has("faultline.tool") || s.attributes.has("faultline.call_id") || s.attributes.has("faultline.attempt");

/**
 * Faultline's own `faultline.*` attributes (its runtime's OTLP mode, or any sender filling the gaps
 * of another convention). They are Faultline's contract, so a wrong value rejects the span.
 * The runtime's final-error spans carry them too but are records of their own (`tool-error-spans.ts`).
 */
export const faultlineConvention: ToolConvention = {
  name: "faultline",
  recognises: (s) => marks(s) && !isToolErrorRecord(s),
  read: (s) => {
    const a = s.attributes;
    return {
      tool: text(a, "faultline.tool", LIMITS.maxNameLength),
      callId: id(a, "faultline.call_id"),
      runId: id(a, "faultline.run_id"),
      attempt: int(a, "faultline.attempt", 1, LIMITS.maxAttempt, true),
      outcome: oneOf(a, "faultline.outcome", OUTCOMES),
      code: text(a, "faultline.code", LIMITS.maxCodeLength),
      errorClass: oneOf(a, "faultline.error_class", ERROR_CLASSES),
      retryable: bool(a, "faultline.retryable", true),
    };
  },
  fixes: { tool: "faultline.tool", callId: "faultline.call_id", message: "span status message", ...FAULTLINE_FIXES },
  setOn: "on the tool span (Faultline's runtime sets these itself in its OTLP mode)",
  fixWhere: RESOURCE_WHERE,
};
