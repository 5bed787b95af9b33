/**
 * Faultline runtime: typed tool errors, the error map, the run loop with its decision table,
 * circuit breakers, HTTP helpers, model adapters (Anthropic, OpenAI Chat and Responses, MCP, the
 * Vercel AI SDK), and the exporter. Depends only on `lib/contracts`, zod and the platform
 * (`fetch`, `AbortController`, `crypto`), so it is published on its own as `@faultline/runtime`.
 */
export { RUNTIME_NAME, RUNTIME_VERSION } from "./version";

export { EventEmitter, type Event, type IDisposable, type ListenerErrorHandler } from "./common/event";
export { systemClock, systemScheduler, systemSleep, sleepOn, type Cancel, type Clock, type Random, type Scheduler, type Sleep } from "./common/time";
export { isCancellation } from "./common/abort";
export { randomHex, randomIds, sequentialIds, type IdSource } from "./common/ids";
export { VirtualTime } from "./common/virtual-time";

export { ToolError, assertCode, assertDelayMs, type ToolErrorOptions } from "./errors/tool-error";
export { ToolFailure, type ToolFailureOptions } from "./errors/tool-failure";
export { ToolRefusal } from "./errors/tool-refusal";
export { ToolTimedOutError, type ToolTimedOutOptions } from "./errors/tool-timed-out";
export { ToolNotPermittedError, type ToolNotPermittedOptions } from "./errors/tool-not-permitted";
export { ToolNotFoundError, type ToolNotFoundOptions } from "./errors/tool-not-found";
export { ToolArgumentValidationError, type ArgumentProblems, type ToolArgumentValidationOptions } from "./errors/tool-argument-validation";
export { ToolResultError, type ToolResultErrorOptions } from "./errors/tool-result-error";
export { DEFAULT_CODES } from "./errors/default-codes";
export { isToolError, isToolRefusal, isUnmapped } from "./errors/guards";

export { ToolErrorMap, type ErrorClassKey, type ToolErrorMapOptions } from "./map/tool-error-map";
export { describeThrown } from "./map/describe";
export { permanent, refusal, transient, type RetryAfterSource, type ToolErrorRule, type TransientRuleOptions } from "./map/rules";
export { readStatus } from "./map/status";

export { ASSIGNMENT_BUCKETS, assignVariant, assignmentBucket, fnv1a32, type Weighted } from "./experiments/assign";
export {
  WordingSet,
  boundedWording,
  chooseWording,
  defineExperiment,
  type ChosenWording,
  type LocalExperiment,
  type LocalVariant,
  type WordingQuery,
  type WordingSource,
} from "./experiments/wording-set";
export { DEFAULT_WORDINGS_TTL_MS, RemoteWordings, type RemoteWordingsOptions, type WordingFetch } from "./experiments/remote-wordings";

export { DEFAULT_RETRY, retryOptions, type RetryOptions } from "./retry/retry-options";
export { backoffWindow, fullJitterDelay, seededRandom } from "./retry/backoff";

export { decide, type DecisionInput, type FailurePolicy, type StopReason, type Verdict } from "./loop/decide";
export { toldText, type ToldContext } from "./loop/told";
export { defineTool, type ToolContext, type ToolDefinition } from "./loop/tool-definition";
export type { CancelledResult, DeclinedResult, ErrorResult, OkResult, ToolCallRequest, ToolCallResult } from "./loop/results";
export type { CallRef, CancelEvent, GiveUpEvent, RetryEvent, RunEndEvent, SuccessEvent } from "./loop/events";
export { RunSession, type CallOptions, type RunOptions } from "./loop/run-session";
export { UNNAMED_TOOL } from "./loop/read-request";
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
export { isCircuitOpen, type WhenOpen } from "./breaker/circuit-open";

export { escapeMarkers, wrapUntrusted, type UntrustedSource } from "./envelope/untrusted";
export { MAX_RESULT_CHARS, isErrorResult, modelText, renderResult, type RenderedResult } from "./adapters/content";
export { serialiseResult, type Serialised } from "./adapters/serialise";
export { answerTurn, decodeArguments, type TurnAnswer } from "./adapters/turn";
export { anthropicToolResults, requestsFromAnthropic, toAnthropicToolResult, type AnthropicToolResultBlock, type AnthropicToolUse } from "./adapters/anthropic";
export { openAIToolMessages, requestsFromOpenAIToolCalls, toOpenAIToolMessage, type OpenAIToolCall, type OpenAIToolMessage } from "./adapters/openai";
export {
  openAIFunctionCallOutputs,
  requestsFromOpenAIResponse,
  toOpenAIFunctionCallOutput,
  type OpenAIFunctionCall,
  type OpenAIFunctionCallOutput,
  type OpenAIResponseItem,
} from "./adapters/openai-responses";
export {
  MCP_INVALID_PARAMS,
  McpProtocolError,
  toMcpAnswer,
  toMcpCallToolResult,
  toMcpJsonRpcResponse,
  type McpCallToolResult,
  type McpJsonRpcError,
  type McpToolAnswer,
} from "./adapters/mcp";
export { AiSdkToolCallError, fromAiSdkTools, type AiSdkExecutionOptions, type AiSdkToolLike, type AiSdkTools, type AiSdkToolSettings } from "./adapters/ai-sdk";

export { HTTP_CODES } from "./http/http-codes";
export { recogniseNetworkFailure, type NetworkFailure, type NetworkPhase } from "./http/network-error";
export { toolErrorFromNetworkError } from "./http/network-tool-error";
export { toolErrorFromResponse, type HttpResponseLike, type HttpStatusOptions } from "./http/response-error";
export { fetchOrThrow, type FetchOrThrowOptions } from "./http/fetch-or-throw";

export { MemorySink, fanOut, safeRecord, type RecordSink } from "./record/sink";

export { Exporter, type ExporterOptions } from "./export/exporter";
export { DROP_REASONS, type DropReason, type ExporterStats } from "./export/stats";
export { hexId, otlpBody, toOtlpSpan, type OtlpAttribute, type OtlpSpan } from "./export/otlp";
export { clampRecord, clampResource } from "./export/clamp";
export { parseRetryAfter } from "./export/retry-after";
export type { FetchLike, FetchResponseLike } from "./export/http";
