import type { EmitterField, FieldFix } from "@/lib/contracts/conformance";
import { conventionNamed } from "./index";

// Inputs with one fixed shape: the record field that carries each value.
const NATIVE_FIELDS: Record<EmitterField, string | null> = {
  callId: "call_id", runId: "run_id", attempt: "attempt", outcome: "outcome", code: "code", errorClass: "error_class", message: "message",
  release: "resource.release",
};
const RECORD_FIELDS: Record<string, Record<EmitterField, string | null>> = { native: NATIVE_FIELDS, native_python: NATIVE_FIELDS };
const RECORD_WHERE: Record<string, string> = { native: "in each span record of the batch (docs/runtime.md, wire contract)", native_python: "in each span record of the batch (docs/python.md)" };

/**
 * What an emitter adds so its spans carry `field`, and where in its SDK: the convention's attribute on
 * the span it names, or a record field; null when the input has no place for it.
 */
export function fieldFix(convention: string, field: EmitterField): FieldFix | null {
  const c = conventionNamed(convention);
  if (c) return { attribute: c.fixes[field], where: c.fixWhere?.[field] ?? c.setOn };
  const attribute = RECORD_FIELDS[convention]?.[field] ?? null;
  return attribute === null ? null : { attribute, where: RECORD_WHERE[convention] ?? "in each record" };
}

// How Faultline derives a field an input leaves out (docs/otlp.md, Derived fields). OTLP conventions
// share one rule per field; the reference kit's record formats have their own.
const OTLP_DERIVATIONS: Partial<Record<EmitterField, (callIdAttribute: string) => string>> = {
  runId: () => "the trace id: one run per trace (correct unless one run spans several traces)",
  callId: (attr) => `<tool>@<parent span id>: the spans of one tool under one parent are one call's attempts (two calls of one tool under one parent would merge; ${attr} keeps them apart)`,
  attempt: () => "numbered 1, 2, 3… by start time (to the nanosecond) among the call's spans",
};
const RECORD_DERIVATIONS: Record<string, Partial<Record<EmitterField, string>>> = {
  adk_span: { attempt: "the record's place among its call's records in the request" },
  adk_run_event: { attempt: "the closing event's place after the call's retries" },
};

/** How Faultline derives `field` for an emitter's spans; null when it never does. */
export function fieldDerivation(convention: string, field: EmitterField): string | null {
  const c = conventionNamed(convention);
  if (c) return OTLP_DERIVATIONS[field]?.(c.fixes.callId) ?? null;
  return RECORD_DERIVATIONS[convention]?.[field] ?? null;
}

/** What to change so spans dropped for `reason` are stored. */
export function dropFix(reason: string, attribute: string | null): string {
  switch (reason) {
    case "unrecognised":
      return `mark the span as a tool call: add ${attribute}`;
    case "no_tool_name":
      return `add ${attribute} (the tool's name)`;
    case "invalid_time":
      return `send a valid ${attribute} (after 2000-01-01, not in the future, end after start)`;
    case "invalid_attribute":
      return `fix ${attribute}: see the value rules in docs/otlp.md`;
    default:
      return "send a span that decodes as OTLP (ids in hex, times as integers)";
  }
}
