import { LIMITS, OUTCOMES, type Outcome } from "@/lib/contracts";
import { untypedKitClass } from "@/lib/ingest/adk-call-facts";
import { parseRefusalDetail, parseToolErrorDetail } from "../adk-detail";
import { attrString, type AttrMap } from "../attributes";
import { outcomeOfClass, taxonomyClass } from "../kit-classes";
import { bool, first, int } from "../strict-attributes";
import type { ConventionRead, ToolConvention } from "./convention";
import { FAULTLINE_FIXES, RESOURCE_WHERE } from "./shared-fixes";

const TOOL_EVENTS = new Set(["tool_result", "tool_error", "tool_refused", "tool_indeterminate"]);

/**
 * The reference kit: its auto-instrumentation's `adk.tool` spans (`adk.operation` is the tool,
 * `adk.status` + `adk.error.type` the outcome) and its OTLP recorder's closing run events
 * (`adk.event`, `adk.name`, the detail — with the code — in `langfuse.observation.status_message`).
 * The kit states its outcomes itself, so OpenTelemetry's status fallback does not apply.
 */
export const adkConvention: ToolConvention = {
  name: "adk",
  recognises: (s) => s.name === "adk.tool" || TOOL_EVENTS.has(attrString(s.attributes, "adk.event") ?? ""),
  read: (s) => {
    const a = s.attributes;
    const event = attrString(a, "adk.event");
    const adkClass = attrString(a, "adk.error.type");
    const recorder = readRecorderEvent(event, event === null ? null : attrString(a, "langfuse.observation.status_message"));
    return {
      tool: event !== null ? attrString(a, "adk.name") : s.name === "adk.tool" ? attrString(a, "adk.operation") : null,
      runId: attrString(a, "adk.run_id"),
      attempt: int(a, "adk.attempt", 1, LIMITS.maxAttempt, false),
      outcome: first(recorder.outcome, statusOutcome(a, adkClass)),
      code: recorder.code,
      errorClass: first(recorder.errorClass, taxonomyClass(adkClass)),
      retryable: first(bool(a, "adk.error.retryable", false), recorder.retryable),
      message: first(recorder.message, adkClass && !taxonomyClass(adkClass) ? adkClass : null),
    };
  },
  fixes: { tool: "adk.operation", callId: "faultline.call_id", message: "langfuse.observation.status_message", ...FAULTLINE_FIXES },
  setOn: "on the kit's adk.tool span or recorder span",
  fixWhere: RESOURCE_WHERE,
};

/** The auto-instrumentation status (`ok | error | cancelled`) read with its error class. */
function statusOutcome(a: AttrMap, adkClass: string | null): Outcome | null {
  const status = attrString(a, "adk.status");
  if (status === "ok") return "ok";
  if (status === "cancelled") return "cancelled";
  if (status === "error" || adkClass) return adkClass ? outcomeOfClass(adkClass) : "failed";
  const outcome = attrString(a, "adk.outcome");
  return outcome && (OUTCOMES as readonly string[]).includes(outcome) ? (outcome as Outcome) : null;
}

/** The recorder: the closing run-event kind plus the detail in the status message. */
function readRecorderEvent(event: string | null, detail: string | null): ConventionRead {
  if (event === "tool_result") return { outcome: "ok" };
  if (event === "tool_error") {
    const d = parseToolErrorDetail(detail);
    if (d.variant === "typed") return { outcome: "failed", code: d.code, message: d.message };
    const untypedClass = d.variant === "text" ? untypedKitClass(d.text) : null;
    return { outcome: "failed", message: detail, ...(untypedClass ? { errorClass: untypedClass, retryable: false } : {}) };
  }
  if (event === "tool_refused") {
    const refusal = parseRefusalDetail(detail);
    // `<code>: <message>` is the tool saying no; without it the loop refused the call.
    if (refusal) return { outcome: "declined", code: refusal.code, errorClass: "ToolRefusal", retryable: false, message: refusal.message || null };
    // A call the loop refused is never retried (adk-tool-errors.md §3.4).
    return { outcome: "refused", retryable: false, message: detail };
  }
  if (event === "tool_indeterminate") return { message: detail };
  return {};
}
