/**
 * Normalised rows, the shape every input format (native batch, OTLP, reference-kit records) is mapped
 * to before storage. `null` means "the source did not say": it is stored and shown as unknown.
 */
export interface SpanRow {
  spanId: string;
  traceId: string | null;
  parentSpanId: string | null;
  runId: string;
  callId: string;
  tool: string;
  toolVersion: string | null;
  release: string | null;
  service: string | null;
  environment: string | null;
  sdkName: string | null;
  sdkVersion: string | null;
  attempt: number | null;
  startedAt: number;
  endedAt: number;
  outcome: string | null;
  code: string | null;
  errorClass: string | null;
  retryable: boolean | null;
  retryAfterMs: number | null;
  backoffMs: number | null;
  decision: string | null;
  permitted: boolean | null;
  abandoned: boolean | null;
  message: string | null;
  /** Comma-separated names of fields derived by Faultline, not read from the source; null = none. */
  derived: string | null;
  source: string;
}

/** A run record; a run's end event alone carries no agent or start, so those may be unknown. */
export interface RunRow {
  recordId: string;
  runId: string;
  agent: string | null;
  release: string | null;
  service: string | null;
  environment: string | null;
  sdkName: string | null;
  sdkVersion: string | null;
  startedAt: number | null;
  endedAt: number | null;
  state: string;
  deadlineAt: number | null;
  maxToolAttempts: number | null;
  error: string | null;
  source: string;
}

export interface ToolErrorRow {
  eventId: string;
  runId: string;
  callId: string;
  tool: string;
  toolVersion: string | null;
  release: string | null;
  service: string | null;
  environment: string | null;
  code: string | null;
  errorClass: string | null;
  retryable: boolean | null;
  attempts: number | null;
  decision: string | null;
  told: string | null;
  /** Comma-separated names of fields derived by Faultline, not read from the source; null = none. */
  derived: string | null;
  occurredAt: number;
  source: string;
}

/** A batch of normalised rows; `index` points back into the request for per-record answers. */
export interface RowBatch {
  runs: { index: number; row: RunRow }[];
  spans: { index: number; row: SpanRow }[];
  toolErrors: { index: number; row: ToolErrorRow }[];
}

export const emptyRowBatch = (): RowBatch => ({ runs: [], spans: [], toolErrors: [] });
