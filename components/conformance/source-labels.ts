/** Human names of the `tool_call_spans.source` values; an unknown source shows its raw value. */
export const SOURCE_LABELS: Record<string, string> = {
  native: "Faultline runtime (native)",
  otlp: "OTLP traces",
  adk_run_event: "Reference kit · run events",
  adk_published: "Reference kit · published events",
  adk_span: "Reference kit · ToolCallSpan",
};

/** Human names of the conventions an emitter's spans were read by; other values are input formats. */
export const CONVENTION_LABELS: Record<string, string> = {
  faultline: "Faultline attributes (faultline.*)",
  adk: "Reference kit (adk.*)",
  gen_ai: "OpenTelemetry GenAI",
  openinference: "OpenInference",
  traceloop: "OpenLLMetry / Traceloop",
  vercel_ai: "Vercel AI SDK",
  langfuse: "Langfuse",
  native_python: "Faultline Python SDK (native)",
  unknown: "unreadable spans",
  ...SOURCE_LABELS,
};

/** What each field's absence costs, said once under the table. */
export const GAP_NOTES = {
  outcome: "Outcome unknown: the span does not say how the attempt ended.",
  code: "Code unknown: a non-ok attempt without a stable error code (share of non-ok spans).",
  attempt: "Attempt unknown: neither sent nor derivable, so retries cannot be ordered.",
  release: "Release unknown: the span cannot be placed in a release, so drift cannot see it.",
} as const;
