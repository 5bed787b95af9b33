import type { Outcome } from "@/lib/contracts";
import type { OtlpSpan } from "../decode";

/** The span conventions Faultline reads tool calls from, most specific first. */
export const CONVENTION_NAMES = ["faultline", "adk", "gen_ai", "openinference", "traceloop", "vercel_ai", "langfuse"] as const;
/** One span convention. */
export type ConventionName = (typeof CONVENTION_NAMES)[number];

/** What one convention says about a tool span; a missing or null field is one it does not carry. */
export interface ConventionRead {
  tool?: string | null;
  callId?: string | null;
  runId?: string | null;
  attempt?: number | null;
  outcome?: Outcome | null;
  code?: string | null;
  errorClass?: string | null;
  retryable?: boolean | null;
  message?: string | null;
  /** A raw `error.type`-like value that is either a code or a class name (split by `splitErrorType`). */
  errorType?: string | null;
}

/** The fields the conformance page measures per emitter, each with the attribute that carries it. */
export const HINT_FIELDS = ["tool", "callId", "runId", "attempt", "outcome", "code", "errorClass", "message", "release"] as const;
/** A field measured on the conformance page. */
export type HintField = (typeof HINT_FIELDS)[number];

/**
 * One convention's mapping onto Faultline's tool-call model: whether it marks a span as a tool call,
 * what it reads from it, and which attribute a sender adds to supply each field it lacks.
 */
export interface ToolConvention {
  name: ConventionName;
  /** True when the span is a tool call by this convention. */
  recognises(span: OtlpSpan): boolean;
  /** The fields this convention carries on the span (read leniently, except Faultline's own). */
  read(span: OtlpSpan): ConventionRead;
  /** Per field, the exact attribute that supplies it when a span of this convention lacks it. */
  fixes: Record<HintField, string>;
  /** Where a span attribute is set with this emitter's SDK (the tool span, from the tool's own code). */
  setOn: string;
  /** Per field, where its fix goes when that is not the tool span (the resource, a processor option…). */
  fixWhere?: Partial<Record<HintField, string>>;
}
