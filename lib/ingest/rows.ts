import type { Classified } from "@/lib/classify/classify";
import type { SpanFacts } from "@/lib/classify/facts";
import type { ToolResultMessage } from "./otlp/told-messages";

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
  /** Nanoseconds past `startedAt` (0–999 999) where the source carries them (OTLP); null otherwise. */
  startedSubNs: number | null;
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
  /** Hash of the call's canonicalised arguments (lib/contracts/args-hash.ts); never the arguments. */
  argsHash: string | null;
  /** The call id of the surfaced error this call answers, when the runtime linked it; '' when it said none; null when unknown. */
  afterError: string | null;
  source: string;
  /**
   * Who sent the span, for the conformance page: the sending service (OTLP resource `service.name`)
   * and the convention it was read by. Absent for inputs with one fixed shape, whose emitter is their
   * `service` and `source`.
   */
  emitter?: Emitter;
  /** What a failed span says about its failure beyond the fields above (error type, HTTP status, attributes), for classification. */
  facts?: SpanFacts;
  /** Set by classification at ingest (lib/classify/classify-rows.ts) on every failed or refused span. */
  classification?: SpanClassification;
}

/** What classification decided for one failed or refused span. */
export interface SpanClassification {
  /** The rule (a project rule's id or a `builtin.*` id) and version that set the code; null = none did. */
  ruleId: string | null;
  ruleVersion: number | null;
  /** The failure group of a span left without a code. */
  groupKey: string | null;
  /** The emitter's own fields, kept when a rule changed them; null when no rule did. */
  prior: Classified | null;
  /** The project's rules revision the span was classified at. */
  revision: number;
}

/** A sender of spans: its service and the convention its spans follow. */
export interface Emitter {
  service: string | null;
  convention: string;
}

/** A span that looked like a tool call but could not be stored: counted per emitter and reason. */
export interface DropRow {
  emitter: Emitter;
  /** A short reason code (`no_tool_name`, `invalid_attribute`, `invalid_time`, `unrecognised`, `malformed`). */
  reason: string;
  /** The attribute to add or fix; null when the span could not be read at all. */
  attribute: string | null;
  at: number;
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
  /** Tool calls the model asked for that never got a result (the runtime's count); null when not tracked. */
  unansweredToolUses: number | null;
  /** The OpenTelemetry trace and span of the run's agent span (OTLP); null when the source has none. */
  traceId: string | null;
  spanId: string | null;
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
  /** The tool span this error was derived from (an OTLP call whose result went back to the model); absent for reported errors. */
  fromSpanId?: string;
  /** The wording experiment and variant the told text came from; null outside experiments (and from formats that cannot carry them). */
  experiment: string | null;
  variant: string | null;
  /** Set by classification at ingest (lib/classify/classify-errors.ts) on every final error but a native record's. */
  classification?: ErrorClassification;
}

/** The fields of a final error that classification reads and may set. */
export type ErrorClassified = Pick<ToolErrorRow, "code" | "errorClass" | "retryable">;

/** What classification decided for one final error. */
export interface ErrorClassification {
  /** The rule (a project rule's id or a `builtin.*` id) and version that set the code; null = none did. */
  ruleId: string | null;
  ruleVersion: number | null;
  /** The emitter's own fields, kept when a rule changed them; null when no rule did. */
  prior: ErrorClassified | null;
  /** The project's rules revision the error was classified at. */
  revision: number;
}

/** A batch of normalised rows; `index` points back into the request for per-record answers. */
export interface RowBatch {
  runs: { index: number; row: RunRow }[];
  spans: { index: number; row: SpanRow }[];
  toolErrors: { index: number; row: ToolErrorRow }[];
  /** Tool-like spans that were refused (OTLP only); not rows of their own, only counted. */
  drops?: DropRow[];
  /**
   * Tool results read by model calls whose tool calls came in an earlier request (OTLP only): matched
   * against the stored calls before storage (lib/ingest/otlp/told-errors.ts, `toldErrorsFromStored`).
   */
  toldResults?: ToolResultMessage[];
}

/** A batch with no rows. */
export const emptyRowBatch = (): RowBatch => ({ runs: [], spans: [], toolErrors: [], drops: [] });
