import type { Decision } from "../../contracts";
import type { ToolError } from "../errors/tool-error";
import type { ToolRefusal } from "../errors/tool-refusal";

/** Fields every finished call has. */
export interface CallResultBase {
  readonly runId: string;
  /** The provider's tool-use id (or a generated one). */
  readonly callId: string;
  readonly tool: string;
  /** Attempts made (0 when the call was never dispatched). */
  readonly attempts: number;
}

/** The tool returned a value. */
export interface OkResult extends CallResultBase {
  readonly status: "ok";
  readonly value: unknown;
}

/** The tool declined: data for the model, not an error. */
export interface DeclinedResult extends CallResultBase {
  readonly status: "declined";
  readonly error: ToolRefusal;
  readonly decision: "delivered";
  /** Exactly what the model is told (envelope content), scrubbed. */
  readonly told: string;
}

/** The call ended in an error the model is told about (or that failed the run). */
export interface ErrorResult extends CallResultBase {
  readonly status: "error";
  readonly error: ToolError;
  readonly decision: Exclude<Decision, "retried" | "delivered" | "cancelled">;
  readonly told: string;
}

/** The call was cancelled (run cancelled, deadline, or the run had already ended). */
export interface CancelledResult extends CallResultBase {
  readonly status: "cancelled";
  readonly decision: "cancelled";
  readonly told: string;
}

/** How one tool call finished. */
export type ToolCallResult = OkResult | DeclinedResult | ErrorResult | CancelledResult;

/** A request to run one tool call. */
export interface ToolCallRequest {
  /** The provider's id for this call (Anthropic `tool_use.id`, OpenAI `tool_call.id`). */
  readonly callId?: string;
  /**
   * The tool the model asked for. Typed as a string, but read defensively: a missing, blank or
   * non-string name (models do produce them) ends as a not-found result, never a rejection.
   */
  readonly tool: string;
  readonly args?: unknown;
  /**
   * Set when the provider's arguments could not be decoded (for example invalid JSON): the call
   * ends as a `ToolArgumentValidationError` carrying this text, and nothing runs.
   */
  readonly argumentsError?: string;
  /**
   * The `callId` of the earlier call whose surfaced error this call answers, when the agent knows it
   * (the model said so); `null` when the agent knows the call answers no error (it moved on). Absent:
   * the run links it itself (see `RunSession.call`).
   */
  readonly afterError?: string | null;
}
