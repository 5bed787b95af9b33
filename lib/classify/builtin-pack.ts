import type { RuleMatch, RuleSet } from "@/lib/contracts/classification";
import { RPC_ERROR_CODE } from "./facts";

/** A rule of the built-in pack: any of its condition sets matches; documented in docs/classification.md. */
export interface BuiltinRule {
  id: string;
  description: string;
  anyOf: (Partial<RuleMatch> & { noHttpStatus?: boolean })[];
  set: RuleSet;
  /** Take retry_after from the response headers when the span did not carry one. */
  retryAfterFromHeaders?: boolean;
}

/** Bumped whenever a rule of the pack changes meaning; stored with every code the pack set. */
export const BUILTIN_PACK_VERSION = 1;

const rpc = (code: number, message?: string): Partial<RuleMatch> => ({ attributes: [{ key: RPC_ERROR_CODE, value: String(code) }], ...(message ? { message } : {}) });
const types = (...globs: string[]) => globs.map((errorType) => ({ errorType }));
const messages = (...globs: string[]) => globs.map((message) => ({ message }));
const failure = (code: string, retryable: boolean | null): RuleSet => ({ code, errorClass: "ToolFailure", retryable });

// Order matters: protocol errors, then validation before any upstream call, then a status when the
// failure has one (a status decides over a type or a message), then SDK and runtime exception types
// (the timeout before the connection error: the SDKs' APITimeoutError is an APIConnectionError),
// then message wording, which is all an MCP `isError` result or a bare exception carries.
// Every upstream answer is the tool's failure (ToolFailure): only the runtime or the protocol can
// say refused, not found or timed out on the tool's behalf.
/** The built-in pack, in order; the project's own rules are tried before it. */
export const BUILTIN_RULES: readonly BuiltinRule[] = [
  {
    id: "builtin.mcp_unknown_tool",
    description: "MCP -32602 whose message names an unknown tool: the tool does not exist",
    anyOf: [rpc(-32602, "*unknown tool*"), rpc(-32602, "*tool*not found*"), rpc(-32602, "*no such tool*")],
    set: { code: "tool_not_found", errorClass: "ToolNotFoundError", retryable: false },
  },
  {
    id: "builtin.mcp_invalid_params",
    description: "any other MCP -32602: the arguments were invalid",
    anyOf: [rpc(-32602)],
    set: { code: "invalid_arguments", errorClass: "ToolArgumentValidationError", retryable: false },
  },
  { id: "builtin.mcp_internal_error", description: "MCP -32603: the tool's server failed", anyOf: [rpc(-32603)], set: failure("tool_internal_error", null) },
  {
    id: "builtin.validation",
    description: "a pydantic or zod validation error raised before any upstream call (no HTTP status)",
    anyOf: types("ValidationError", "ZodError", "ValidationException").map((m) => ({ ...m, noHttpStatus: true })),
    set: { code: "invalid_arguments", errorClass: "ToolArgumentValidationError", retryable: false },
  },
  { id: "builtin.http_429", description: "HTTP 429", anyOf: [{ httpStatus: [429] }], set: failure("rate_limited", true), retryAfterFromHeaders: true },
  { id: "builtin.http_408", description: "HTTP 408", anyOf: [{ httpStatus: [408] }], set: failure("upstream_timeout", true) },
  { id: "builtin.http_5xx", description: "HTTP 502, 503, 504 and 529 (overloaded)", anyOf: [{ httpStatus: [502, 503, 504, 529] }], set: failure("upstream_unavailable", true) },
  { id: "builtin.http_401_403", description: "HTTP 401 and 403", anyOf: [{ httpStatus: [401, 403] }], set: failure("upstream_unauthorized", false) },
  { id: "builtin.http_404", description: "HTTP 404", anyOf: [{ httpStatus: [404] }], set: failure("upstream_not_found", false) },
  { id: "builtin.type_rate_limit", description: "RateLimitError (OpenAI, Anthropic)", anyOf: types("RateLimitError"), set: failure("rate_limited", true), retryAfterFromHeaders: true },
  {
    id: "builtin.type_timeout",
    description: "timeout exceptions: APITimeoutError, TimeoutError, *Timeout, *TimeoutException",
    anyOf: types("APITimeoutError", "*TimeoutError", "*Timeout", "*TimeoutException"),
    set: failure("upstream_timeout", true),
  },
  {
    id: "builtin.type_connection",
    description: "connection errors: APIConnectionError, ConnectionError and its kinds, ConnectError, OverloadedError",
    anyOf: types("APIConnectionError", "*ConnectionError", "Connection*Error", "ConnectError", "OverloadedError", "ServiceUnavailableError"),
    set: failure("upstream_unavailable", true),
  },
  {
    id: "builtin.type_auth",
    description: "AuthenticationError, PermissionDeniedError (OpenAI, Anthropic)",
    anyOf: types("AuthenticationError", "PermissionDeniedError"),
    set: failure("upstream_unauthorized", false),
  },
  { id: "builtin.text_rate_limit", description: "message: rate limit, too many requests", anyOf: messages("*rate limit*", "*too many requests*"), set: failure("rate_limited", true) },
  {
    id: "builtin.text_timeout",
    description: "message: timed out, ETIMEDOUT, deadline exceeded",
    anyOf: messages("*timed out*", "*ETIMEDOUT*", "*deadline exceeded*"),
    set: failure("upstream_timeout", true),
  },
  {
    id: "builtin.text_connection",
    description: "message: ECONNREFUSED, ECONNRESET, connection refused or reset, service unavailable, bad gateway",
    anyOf: messages("*ECONNREFUSED*", "*ECONNRESET*", "*ENOTFOUND*", "*connection refused*", "*connection reset*", "*service unavailable*", "*bad gateway*"),
    set: failure("upstream_unavailable", true),
  },
];
