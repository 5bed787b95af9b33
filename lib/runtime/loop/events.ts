import type { Decision, RunState } from "../../contracts";
import type { ToolError } from "../errors/tool-error";

/** Identifies the call an event is about. */
export interface CallRef {
  readonly runId: string;
  readonly callId: string;
  readonly tool: string;
}

/** A failed attempt that will be retried. */
export interface RetryEvent extends CallRef {
  readonly attempt: number;
  readonly error: ToolError;
  readonly backoffMs: number;
}

/** A call that stopped with an error or refusal. */
export interface GiveUpEvent extends CallRef {
  readonly attempts: number;
  readonly error: ToolError;
  readonly decision: Decision;
  readonly told: string;
}

/** A call that returned a value. */
export interface SuccessEvent extends CallRef {
  readonly attempts: number;
  readonly durationMs: number;
}

/** A call that was cancelled. */
export interface CancelEvent extends CallRef {
  readonly attempts: number;
  readonly reason: string;
}

/** A run that ended. */
export interface RunEndEvent {
  readonly runId: string;
  readonly state: RunState;
  readonly error?: string;
}
