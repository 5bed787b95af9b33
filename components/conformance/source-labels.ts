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
  unknown: "unreadable spans",
  ...SOURCE_LABELS,
};

/** What each field's absence costs, said once under the table. */
export const GAP_NOTES = {
  outcome: "No outcome: the span does not say how the attempt ended.",
  code: "No code: a non-ok attempt without a stable error code (share of non-ok spans).",
  attempt: "No attempt: the attempt number is unknown, so retries cannot be ordered.",
  release: "No release: the span cannot be placed in a release, so drift cannot see it.",
} as const;
