import type { EmitterField } from "@/lib/contracts/conformance";
import { conventionNamed } from "./index";

// Inputs with one fixed shape: the record field that carries each value.
const RECORD_FIELDS: Record<string, Record<EmitterField, string | null>> = {
  native: {
    callId: "call_id", runId: "run_id", attempt: "attempt", outcome: "outcome", code: "code", errorClass: "error_class", message: "message",
    release: "resource.release",
  },
};

/** The exact attribute (or record field) an emitter adds so its spans carry `field`; null when there is none. */
export function fieldFix(convention: string, field: EmitterField): string | null {
  const c = conventionNamed(convention);
  if (c) return c.fixes[field];
  return RECORD_FIELDS[convention]?.[field] ?? null;
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
