import type { CircuitBreaker } from "../breaker/circuit-breaker";
import type { ArgumentProblems } from "../errors/tool-argument-validation";
import type { ToolErrorMap } from "../map/tool-error-map";
import type { RetryOptions } from "../retry/retry-options";

/** What a tool body receives besides its arguments. */
export interface ToolContext {
  readonly runId: string;
  readonly callId: string;
  /** This attempt's number, from 1. */
  readonly attempt: number;
  /**
   * Aborted on run cancellation, deadline or the tool's own timeout; pass it to fetch and friends.
   * An accessor, made on first read (most bodies never read it): read it from this object, since a
   * spread copy (`{ ...context }`) leaves it out.
   */
  readonly signal: AbortSignal;
}

/** A tool the run loop can call. Methods (not arrow properties) so specific tools fit a generic list. */
export interface ToolDefinition<A = unknown, R = unknown> {
  /** Name the model calls it by. */
  readonly name: string;
  /** Version of the tool (`tool_version` on records); drift is tracked per version. */
  readonly version?: string;
  /** Repeating a call cannot repeat a side effect; allows retrying untyped errors and timeouts. */
  readonly idempotent?: boolean;
  /** Ceiling per attempt; an overrun becomes a {@link ToolTimedOutError}. */
  readonly timeoutMs?: number;
  /** Translates the exceptions this tool's libraries throw. */
  readonly errorMap?: ToolErrorMap;
  /** Breaker of the upstream this tool calls (shared with other tools of that upstream). */
  readonly breaker?: CircuitBreaker;
  /** Overrides of the runner's retry settings for this tool. */
  readonly retry?: Partial<RetryOptions>;
  /** The body. Throw a taxonomy error, or anything (translated by `errorMap`). */
  execute(args: A, context: ToolContext): R | Promise<R>;
  /** Checks the model's arguments before anything runs; return the problems, or nothing. */
  validate?(args: unknown): ArgumentProblems | undefined;
  /** Checks a result before it enters the run; return the violated rule, or nothing. */
  checkResult?(result: R): string | undefined;
}

/** Identity helper that infers argument and result types. */
export function defineTool<A, R>(definition: ToolDefinition<A, R>): ToolDefinition<A, R> {
  return definition;
}
