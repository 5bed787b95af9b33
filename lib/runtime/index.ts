/**
 * Faultline runtime: typed tool errors, the error map, the run loop with its decision table,
 * circuit breakers, model adapters, and the exporter. Depends only on `lib/contracts` and the
 * platform (`fetch`, `AbortController`, `crypto`), so it can be published on its own.
 */
export { RUNTIME_NAME, RUNTIME_VERSION } from "./version";

export { EventEmitter, type Event, type IDisposable, type ListenerErrorHandler } from "./common/event";
export { systemClock, systemScheduler, systemSleep, sleepOn, type Cancel, type Clock, type Random, type Scheduler, type Sleep } from "./common/time";
export { isCancellation } from "./common/abort";
export { randomHex, randomIds, sequentialIds, type IdSource } from "./common/ids";
export { VirtualTime } from "./common/virtual-time";

export { ToolError, assertCode, type ToolErrorOptions } from "./errors/tool-error";
export { ToolFailure, type ToolFailureOptions } from "./errors/tool-failure";
export { ToolRefusal } from "./errors/tool-refusal";
export { ToolTimedOutError, type ToolTimedOutOptions } from "./errors/tool-timed-out";
export { ToolNotPermittedError, type ToolNotPermittedOptions } from "./errors/tool-not-permitted";
export { ToolNotFoundError, type ToolNotFoundOptions } from "./errors/tool-not-found";
export { ToolArgumentValidationError, type ArgumentProblems, type ToolArgumentValidationOptions } from "./errors/tool-argument-validation";
export { ToolResultError, type ToolResultErrorOptions } from "./errors/tool-result-error";
export { DEFAULT_CODES } from "./errors/default-codes";
export { isToolError, isToolRefusal, isUnmapped } from "./errors/guards";

export { ToolErrorMap, describeThrown, type ErrorClassKey, type ToolErrorMapOptions } from "./map/tool-error-map";
export { permanent, refusal, transient, type RetryAfterSource, type ToolErrorRule } from "./map/rules";
export { readStatus } from "./map/status";

export { DEFAULT_RETRY, retryOptions, type RetryOptions } from "./retry/retry-options";
export { backoffWindow, fullJitterDelay, seededRandom } from "./retry/backoff";

export { decide, type DecisionInput, type FailurePolicy, type StopReason, type Verdict } from "./loop/decide";
export { toldText, type ToldContext } from "./loop/told";
export { defineTool, type ToolContext, type ToolDefinition } from "./loop/tool-definition";
export type { CancelledResult, DeclinedResult, ErrorResult, OkResult, ToolCallRequest, ToolCallResult } from "./loop/results";
export type { CallRef, CancelEvent, GiveUpEvent, RetryEvent, RunEndEvent, SuccessEvent } from "./loop/events";
export { RunSession, type RunOptions } from "./loop/run-session";
export { DEFAULT_ABANDON_GRACE_MS, DEFAULT_MAX_TOOL_ATTEMPTS, ToolRunner, type ToolRunnerOptions } from "./loop/tool-runner";

export {
  CircuitBreaker,
  type BreakReason,
  type CallVerdict,
  type CircuitBreakEvent,
  type CircuitBreakerOptions,
  type CircuitHalfOpenEvent,
  type CircuitResetEvent,
  type CircuitState,
  type CircuitStateChange,
} from "./breaker/circuit-breaker";

export { escapeMarkers, wrapUntrusted, type UntrustedSource } from "./envelope/untrusted";
export { MAX_RESULT_CHARS, isErrorResult, modelText } from "./adapters/content";
export { anthropicToolResults, toAnthropicToolResult, type AnthropicToolResultBlock, type AnthropicToolUse } from "./adapters/anthropic";
export { toOpenAIToolMessage, type OpenAIToolMessage } from "./adapters/openai";
export { toMcpCallToolResult, type McpCallToolResult } from "./adapters/mcp";

export { MemorySink, fanOut, safeRecord, type RecordSink } from "./record/sink";

export { Exporter, type ExporterOptions } from "./export/exporter";
export { DROP_REASONS, type DropReason, type ExporterStats } from "./export/stats";
export { hexId, otlpBody, toOtlpSpan, type OtlpAttribute, type OtlpSpan } from "./export/otlp";
export { parseRetryAfter } from "./export/retry-after";
export type { FetchLike, FetchResponseLike } from "./export/http";
