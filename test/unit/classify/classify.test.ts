import { describe, expect, it } from "vitest";
import { ruleInputSchema, type ClassificationRule } from "@/lib/contracts/classification";
import { BUILTIN_PACK_VERSION } from "@/lib/classify/builtin-pack";
import { classify, compileRuleset, type Classifiable } from "@/lib/classify/classify";
import { failureFacts, retryAfterFromHeaders } from "@/lib/classify/facts";
import { groupKeyOf, groupParts } from "@/lib/classify/group-key";

const T = Date.UTC(2027, 0, 1);
const call = (over: Partial<Classifiable> = {}): Classifiable => ({
  tool: "search_flights", outcome: "failed", code: null, errorClass: null, retryable: null, retryAfterMs: null, message: null, endedAt: T, ...over,
});
const facts = (attributes: Record<string, unknown>, errorType: string | null, message: string | null) =>
  failureFacts({ attributes: Object.entries(attributes), errorType, message });
const pack = compileRuleset([], true);

function rule(id: string, position: number, input: unknown, version = 1): ClassificationRule {
  return { ...ruleInputSchema.parse(input), id, version, position, updatedAt: T };
}

describe("facts", () => {
  it("finds the HTTP status in an attribute, an error.type or a provider message", () => {
    expect(facts({ "http.response.status_code": 503 }, null, null).httpStatus).toBe(503);
    expect(facts({}, "429", null)).toEqual({ errorType: null, httpStatus: 429, attributes: {} });
    expect(facts({}, "openai.RateLimitError", "Error code: 429 - {'error': {'message': 'Rate limit reached'}}").httpStatus).toBe(429);
    expect(facts({}, "RateLimitError", "429 Rate limit reached for gpt-4o").httpStatus).toBe(429);
    expect(facts({}, "ValueError", "expected 3 seats, got 4").httpStatus).toBeNull();
  });
  it("reads a JSON-RPC code from an MCP SDK message", () => {
    expect(facts({}, "McpError", "MCP error -32602: Unknown tool: lookup").attributes).toEqual({ "rpc.jsonrpc.error_code": -32602 });
  });
  it("keeps 64 scalar attributes at most, cutting long text", () => {
    const many = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, "x".repeat(600)]));
    const f = facts({ ...many, nested: { a: 1 } }, null, null);
    expect(Object.keys(f.attributes)).toHaveLength(64);
    expect(f.attributes.k0).toHaveLength(512);
  });
  it("reads retry_after from retry-after-ms, seconds or an HTTP date", () => {
    expect(retryAfterFromHeaders({ "http.response.header.retry-after-ms": "1500" }, T)).toBe(1500);
    expect(retryAfterFromHeaders({ "http.response.header.retry-after": "20" }, T)).toBe(20_000);
    expect(retryAfterFromHeaders({ "http.response.header.retry-after": new Date(T + 7000).toUTCString() }, T)).toBe(7000);
    expect(retryAfterFromHeaders({ "http.response.header.retry-after": "soon" }, T)).toBeNull();
  });
});

describe("group key", () => {
  it("masks numbers, ids and quoted values the way told texts are shaped", () => {
    const a = groupParts({ tool: "book", errorType: "KeyError", message: "booking bk_1234 for 'Ann' not found after 3 tries", httpStatus: null });
    const b = groupParts({ tool: "book", errorType: "KeyError", message: "booking bk_99 for 'Bo' not found after 12 tries", httpStatus: null });
    expect(a.shape).toBe("booking <id> for <value> not found after <n> tries");
    expect(groupKeyOf(a)).toBe(groupKeyOf(b));
    expect(groupKeyOf(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(groupKeyOf({ ...a, httpStatus: 500 })).not.toBe(groupKeyOf(a));
    expect(groupKeyOf({ ...a, tool: "cancel" })).not.toBe(groupKeyOf(a));
  });
});

describe("built-in pack", () => {
  const cases: [string, Record<string, unknown>, string | null, string | null, string, string, boolean | null][] = [
    ["429 status", { "http.response.status_code": 429 }, null, null, "rate_limited", "builtin.http_429", true],
    ["502", { "http.response.status_code": 502 }, null, "bad gateway", "upstream_unavailable", "builtin.http_5xx", true],
    ["504 beats a timeout word", { "http.status_code": 504 }, "InternalServerError", "upstream timed out", "upstream_unavailable", "builtin.http_5xx", true],
    ["408", { "http.response.status_code": 408 }, null, null, "upstream_timeout", "builtin.http_408", true],
    ["401", { "http.response.status_code": 401 }, null, null, "upstream_unauthorized", "builtin.http_401_403", false],
    ["403 from an SDK message", {}, "anthropic.PermissionDeniedError", "Error code: 403 - forbidden", "upstream_unauthorized", "builtin.http_401_403", false],
    ["404", { "http.response.status_code": 404 }, null, null, "upstream_not_found", "builtin.http_404", false],
    ["openai python RateLimitError", {}, "openai.RateLimitError", "Rate limit reached", "rate_limited", "builtin.type_rate_limit", true],
    ["APITimeoutError before APIConnectionError", {}, "openai.APITimeoutError", "Request timed out.", "upstream_timeout", "builtin.type_timeout", true],
    ["APIConnectionError", {}, "APIConnectionError", "Connection error.", "upstream_unavailable", "builtin.type_connection", true],
    ["httpx ReadTimeout", {}, "httpx.ReadTimeout", "", "upstream_timeout", "builtin.type_timeout", true],
    ["ConnectionRefusedError", {}, "ConnectionRefusedError", "[Errno 111]", "upstream_unavailable", "builtin.type_connection", true],
    ["anthropic overloaded 529", {}, "OverloadedError", "Error code: 529 - overloaded", "upstream_unavailable", "builtin.http_5xx", true],
    ["pydantic before any call", {}, "pydantic_core._pydantic_core.ValidationError", "1 validation error for Args", "invalid_arguments", "builtin.validation", false],
    ["ZodError", {}, "ZodError", "Expected number", "invalid_arguments", "builtin.validation", false],
    ["MCP unknown tool", {}, "McpError", "MCP error -32602: Unknown tool: lookup", "tool_not_found", "builtin.mcp_unknown_tool", false],
    ["MCP invalid params", { "rpc.jsonrpc.error_code": -32602 }, null, "Invalid arguments for tool search", "invalid_arguments", "builtin.mcp_invalid_params", false],
    ["MCP internal", {}, null, "MCP error -32603: boom", "tool_internal_error", "builtin.mcp_internal_error", null],
    ["isError text", {}, null, "Error: connect ECONNREFUSED 127.0.0.1:8080", "upstream_unavailable", "builtin.text_connection", true],
    ["rate limit text", {}, null, "You hit the rate limit, slow down", "rate_limited", "builtin.text_rate_limit", true],
  ];
  it.each(cases)("%s", (_name, attributes, errorType, message, code, ruleId, retryable) => {
    const v = classify(call({ message }), facts(attributes, errorType, message), pack);
    expect(v).toMatchObject({ code, ruleId, ruleVersion: BUILTIN_PACK_VERSION, retryable, groupKey: null });
  });
  it("sets the class, and the outcome the class implies", () => {
    expect(classify(call(), facts({ "http.response.status_code": 503 }, null, null), pack)).toMatchObject({ errorClass: "ToolFailure", outcome: "failed" });
    expect(classify(call({ message: "MCP error -32602: Unknown tool: x" }), facts({}, null, "MCP error -32602: Unknown tool: x"), pack)).toMatchObject({
      errorClass: "ToolNotFoundError", outcome: "not_found",
    });
  });
  it("takes retry_after from the response headers of a 429, never over the span's own", () => {
    const f = facts({ "http.response.status_code": 429, "http.response.header.retry-after": ["3"] }, null, null);
    expect(classify(call(), f, pack).retryAfterMs).toBe(3000);
    expect(classify(call({ retryAfterMs: 500 }), f, pack).retryAfterMs).toBe(500);
  });
  it("leaves a pydantic error with a status to the status rules", () => {
    expect(classify(call(), facts({ "http.response.status_code": 422 }, "ValidationError", null), pack)).toMatchObject({ code: null, ruleId: null });
  });
  it("groups what nothing matches, and leaves successes and cancelled calls alone", () => {
    const v = classify(call({ message: "seat 12A is taken" }), facts({}, "SeatError", "seat 12A is taken"), pack);
    expect(v.code).toBeNull();
    expect(v.groupKey).toBe(groupKeyOf(groupParts({ tool: "search_flights", errorType: "SeatError", message: "seat 12A is taken", httpStatus: null })));
    expect(classify(call({ outcome: "ok" }), facts({ "http.response.status_code": 429 }, null, null), pack)).toMatchObject({ code: null, groupKey: null, ruleId: null });
    expect(classify(call({ outcome: "cancelled" }), null, pack).groupKey).toBeNull();
  });
  it("is off when the project switches it off", () => {
    expect(classify(call(), facts({ "http.response.status_code": 429 }, null, null), compileRuleset([], false)).code).toBeNull();
  });
});

describe("project rules", () => {
  const seat = rule("r1", 0, { name: "seat taken", match: { tool: "book_*", message: "seat * is taken" }, set: { code: "seat_taken", errorClass: "ToolRefusal", retryable: false } }, 3);
  it("match on tool glob and message shape; a refusal class makes the call declined", () => {
    const v = classify(call({ tool: "book_seat", message: "seat 12A is taken" }), facts({}, "SeatError", "seat 12A is taken"), compileRuleset([seat], true));
    expect(v).toEqual({ code: "seat_taken", errorClass: "ToolRefusal", retryable: false, outcome: "declined", retryAfterMs: null, ruleId: "r1", ruleVersion: 3, groupKey: null });
    expect(classify(call({ tool: "search", message: "seat 12A is taken" }), null, compileRuleset([seat], true)).code).toBeNull();
  });
  it("matches a pasted group shape", () => {
    const r = rule("s", 0, { name: "s", match: { message: "booking <id> not found" }, set: { code: "booking_missing" } });
    expect(classify(call({ message: "booking bk_1234 not found" }), null, compileRuleset([r], false)).code).toBe("booking_missing");
  });
  it("a permission class makes it refused, never declined", () => {
    const r = rule("r2", 0, { name: "acl", match: { attributes: [{ key: "acl.denied", value: "true" }] }, set: { code: "acl_denied", errorClass: "ToolNotPermittedError" } });
    expect(classify(call(), facts({ "acl.denied": true }, null, null), compileRuleset([r], false)).outcome).toBe("refused");
  });
  it("first match wins, in position order, before the pack; disabled rules are skipped", () => {
    const a = rule("a", 1, { name: "a", match: { httpStatus: [429] }, set: { code: "quota_a" } });
    const b = rule("b", 0, { name: "b", match: { httpStatus: [429, 503] }, set: { code: "quota_b" } });
    const f = facts({ "http.response.status_code": 429 }, null, null);
    expect(classify(call(), f, compileRuleset([a, b], true)).code).toBe("quota_b");
    expect(classify(call(), f, compileRuleset([a, { ...b, enabled: false }], true)).code).toBe("quota_a");
    expect(classify(call(), f, compileRuleset([{ ...a, enabled: false }, { ...b, enabled: false }], true)).code).toBe("rate_limited");
  });
  it("never overrides an emitter-sent code unless the rule says so", () => {
    const f = facts({ "http.response.status_code": 429 }, null, null);
    const sent = call({ code: "quota", errorClass: "ToolFailure", retryable: true });
    const plain = rule("p", 0, { name: "p", match: { httpStatus: [429] }, set: { code: "mine" } });
    expect(classify(sent, f, compileRuleset([plain], true))).toMatchObject({ code: "quota", ruleId: null, groupKey: null });
    const force = rule("f", 0, { name: "f", match: { httpStatus: [429] }, set: { code: "mine" }, overrideEmitter: true });
    expect(classify(sent, f, compileRuleset([force], true))).toMatchObject({ code: "mine", errorClass: "ToolFailure", retryable: true, ruleId: "f" });
  });
  it("matches the error type by its last dotted segment, ignoring case", () => {
    const r = rule("t", 0, { name: "t", match: { errorType: "keyerror" }, set: { code: "missing_key" } });
    expect(classify(call(), facts({}, "builtins.KeyError", null), compileRuleset([r], false)).code).toBe("missing_key");
  });
  it("refuses a rule without a condition, and a code with spaces", () => {
    expect(ruleInputSchema.safeParse({ name: "x", match: {}, set: { code: "a" } }).success).toBe(false);
    expect(ruleInputSchema.safeParse({ name: "x", match: { tool: "a" }, set: { code: "a b" } }).success).toBe(false);
  });
});
