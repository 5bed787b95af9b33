import { describe, expect, it } from "vitest";
import {
  CircuitBreaker,
  HTTP_CODES,
  ToolFailure,
  ToolTimedOutError,
  VirtualTime,
  fetchOrThrow,
  recogniseNetworkFailure,
  refusal,
  toolErrorFromNetworkError,
  toolErrorFromResponse,
  transient,
} from "../../../lib/runtime";
import { T0, harness } from "./helpers";

const res = (status: number, headers: Record<string, string> = {}, statusText = "") =>
  new Response(status === 204 ? null : "body", { status, statusText, headers });
const withCause = (code: string) => new TypeError("fetch failed", { cause: Object.assign(new Error(code.toLowerCase()), { code }) });
const clock = { now: () => Date.UTC(2026, 0, 15, 12, 0, 0) };

describe("toolErrorFromResponse", () => {
  it("maps 429/502/503/504/408 to transient failures carrying Retry-After in seconds or as an HTTP-date", () => {
    const a = toolErrorFromResponse("t", res(429, { "retry-after": "7" }, "Too Many Requests"), { clock })!;
    expect([a.code, a.retryable, a.retryAfterMs, a.detail]).toEqual([HTTP_CODES.rateLimited, true, 7000, "upstream answered 429 Too Many Requests"]);
    const b = toolErrorFromResponse("t", res(503, { "retry-after": "Thu, 15 Jan 2026 12:00:30 GMT" }), { clock })!;
    expect([b.code, b.retryable, b.retryAfterMs]).toEqual([HTTP_CODES.unavailable, true, 30_000]);
    expect(toolErrorFromResponse("t", res(504), { clock })!.retryAfterMs).toBeUndefined();
    expect(toolErrorFromResponse("t", res(502, { "retry-after": "soon" }), { clock })!.retryAfterMs).toBeUndefined();
    expect(toolErrorFromResponse("t", res(408))!.code).toBe(HTTP_CODES.requestTimeout);
  });

  it("maps 500 and 4xx to permanent failures, and 1xx–3xx to nothing", () => {
    expect([200, 204, 304].map((s) => toolErrorFromResponse("t", { status: s, headers: new Headers() }))).toEqual([undefined, undefined, undefined]);
    const table = [500, 501, 400, 401, 403, 404, 409, 418, 422].map((s) => {
      const e = toolErrorFromResponse("t", res(s))!;
      return [s, e.code, e.retryable];
    });
    expect(table).toEqual([
      [500, "upstream_error", false],
      [501, "upstream_error", false],
      [400, "upstream_rejected_request", false],
      [401, "upstream_unauthorized", false],
      [403, "upstream_forbidden", false],
      [404, "upstream_not_found", false],
      [409, "upstream_conflict", false],
      [418, "upstream_client_error", false],
      [422, "upstream_rejected_request", false],
    ]);
  });

  it("a status rule replaces the default; a transient rule without a wait takes Retry-After", () => {
    const statuses = { 409: refusal("seat_taken", "that seat is gone"), 503: transient("supplier_down") };
    expect(toolErrorFromResponse("t", res(409), { statuses })).toMatchObject({ errorClass: "ToolRefusal", code: "seat_taken", detail: "that seat is gone" });
    expect(toolErrorFromResponse("t", res(503, { "retry-after": "3" }), { statuses })).toMatchObject({ code: "supplier_down", retryAfterMs: 3000 });
  });
});

describe("network failures by cause code", () => {
  it("recognises connect-phase, in-flight and DNS codes through cause chains and AggregateError", () => {
    expect(recogniseNetworkFailure(withCause("ECONNREFUSED"))).toEqual({ code: "ECONNREFUSED", phase: "connect", timeout: false });
    expect(recogniseNetworkFailure(withCause("UND_ERR_CONNECT_TIMEOUT"))).toEqual({ code: "UND_ERR_CONNECT_TIMEOUT", phase: "connect", timeout: true });
    expect(recogniseNetworkFailure(withCause("UND_ERR_SOCKET"))).toMatchObject({ phase: "in_flight" });
    expect(recogniseNetworkFailure(new TypeError("fetch failed", { cause: new AggregateError([Object.assign(new Error("x"), { code: "ETIMEDOUT" })]) }))).toMatchObject({ code: "ETIMEDOUT", phase: "connect" });
    expect(recogniseNetworkFailure(withCause("ENOTFOUND"))).toMatchObject({ phase: "dns_missing" });
  });

  it("does not treat every TypeError as transient", () => {
    expect(recogniseNetworkFailure(new TypeError("Failed to parse URL from nope"))).toBeUndefined();
    expect(recogniseNetworkFailure(new TypeError("fetch failed"))).toBeUndefined();
    expect(recogniseNetworkFailure(new DOMException("aborted", "AbortError"))).toBeUndefined();
    expect(toolErrorFromNetworkError("t", new TypeError("x is not a function"))).toBeUndefined();
  });

  it("connect failures are transient; in-flight failures are retryable only for idempotent requests", () => {
    const refused = toolErrorFromNetworkError("t", withCause("ECONNREFUSED"))!;
    expect([refused.code, refused.retryable, refused.errorClass]).toEqual([HTTP_CODES.unreachable, true, "ToolFailure"]);
    expect(toolErrorFromNetworkError("t", withCause("ECONNRESET"))!.retryable).toBe(false);
    expect(toolErrorFromNetworkError("t", withCause("ECONNRESET"), { idempotent: true })!.retryable).toBe(true);
    const slow = toolErrorFromNetworkError("t", withCause("UND_ERR_HEADERS_TIMEOUT"), { idempotent: true })!;
    expect(slow).toBeInstanceOf(ToolTimedOutError);
    expect([slow.code, slow.retryable]).toEqual([HTTP_CODES.requestTimeout, true]);
    expect(toolErrorFromNetworkError("t", withCause("ENOTFOUND"))!.retryable).toBe(false);
  });
});

describe("fetchOrThrow", () => {
  it("returns ok responses, throws typed errors for error answers and network failures, re-throws the rest", async () => {
    const ok = await fetchOrThrow("t", "http://x/ok", undefined, { fetch: async () => res(200) });
    expect(ok.status).toBe(200);
    await expect(fetchOrThrow("t", "http://x", undefined, { fetch: async () => res(503, { "retry-after": "2" }) })).rejects.toMatchObject({ code: "upstream_unavailable", retryAfterMs: 2000 });
    await expect(fetchOrThrow("t", "http://x", undefined, { fetch: async () => res(404), maxDetailChars: 3 })).rejects.toMatchObject({ code: "upstream_not_found", detail: "upstream answered 404: bod" });
    await expect(fetchOrThrow("t", "http://x", undefined, { fetch: async () => { throw withCause("ECONNREFUSED"); } })).rejects.toBeInstanceOf(ToolFailure);
    const bug = new TypeError("Invalid URL");
    await expect(fetchOrThrow("t", "http://x", undefined, { fetch: async () => { throw bug; } })).rejects.toBe(bug);
  });

  it("inside the loop, a flaky HTTP tool is retried after Retry-After and then succeeds", async () => {
    const answers = [res(503, { "retry-after": "2" }), new Response('{"tempC":4}', { status: 200 })];
    const weather = {
      name: "get_weather",
      execute: async (_a: unknown, { signal }: { signal: AbortSignal }) => (await fetchOrThrow("get_weather", "http://weather", { signal }, { fetch: async () => answers.shift()! })).json(),
    };
    const { runner, sink, time } = harness([weather]);
    const r = await runner.startRun().call({ tool: "get_weather" });
    expect(r).toMatchObject({ status: "ok", attempts: 2, value: { tempC: 4 } });
    expect(time.now()).toBe(T0 + 2000);
    expect(sink.ofType("tool_call_span")[0]).toMatchObject({ code: "upstream_unavailable", retry_after_ms: 2000, backoff_ms: 2000, decision: "retried" });
  });
});

describe("CircuitBreaker successThreshold", () => {
  it("needs that many consecutive successful probes, one at a time, before closing; a failure re-opens", () => {
    const time = new VirtualTime(T0, { auto: false });
    const b = new CircuitBreaker("s", { failureThreshold: 1, successThreshold: 2, halfOpenAfterMs: 1000, clock: time });
    const changes: string[] = [];
    b.onStateChange((c) => changes.push(`${c.from}->${c.to}`));
    b.record("failure");
    time.advance(1000);
    expect(b.admit("t")).toBeUndefined();
    expect(b.admit("t")?.code).toBe("circuit_open"); // one probe at a time
    b.record("success");
    expect(b.state).toBe("half_open");
    expect(b.admit("t")).toBeUndefined();
    b.record("success");
    expect(b.state).toBe("closed");
    b.record("failure");
    time.advance(1000);
    b.admit("t");
    b.record("success");
    b.admit("t");
    b.record("failure");
    expect(b.state).toBe("open");
    expect(changes).toEqual(["closed->open", "open->half_open", "half_open->closed", "closed->open", "open->half_open", "half_open->open"]);
    expect(() => new CircuitBreaker("s", { successThreshold: 0 })).toThrow(RangeError);
  });
});

describe("milliseconds everywhere", () => {
  it("errors and rules take retryAfterMs / timeoutMs only", () => {
    expect(new ToolFailure("t", "c", { transient: true, retryAfterMs: 1500 }).retryAfterMs).toBe(1500);
    expect(new ToolTimedOutError("t", { timeoutMs: 250 })).toMatchObject({ timeoutMs: 250, detail: "did not return within 250 ms" });
    expect(() => new ToolFailure("t", "c", { retryAfterMs: -1 })).toThrow(/retryAfterMs/);
    expect(transient("c", { retryAfterMs: 400 }).retryAfterMs).toBe(400);
  });

  it("the removed seconds-valued names throw instead of being read 1000x too short or ignored", () => {
    // Callers the compiler cannot check (plain JS, objects built elsewhere) still pass the old names.
    const old = (o: object) => o as Record<string, never>;
    expect(() => new ToolFailure("t", "c", old({ transient: true, retryAfter: 2 }))).toThrow("'retryAfter' (seconds) was removed: pass 'retryAfterMs' in milliseconds");
    expect(() => new ToolTimedOutError("t", old({ seconds: 5 }))).toThrow("'seconds' (seconds) was removed: pass 'timeoutMs' in milliseconds");
    expect(() => new ToolTimedOutError("t", old({ retryAfter: 1 }))).toThrow("'retryAfter' (seconds) was removed: pass 'retryAfterMs' in milliseconds");
    expect(() => transient("c", old({ retryAfter: 2 }))).toThrow("'retryAfter' (seconds) was removed: pass 'retryAfterMs' in milliseconds");
    // The old seconds getters are gone too: what remains says its unit.
    const e = new ToolTimedOutError("t", { timeoutMs: 250, retryable: true, retryAfterMs: 100 });
    expect(["retryAfter" in e, "seconds" in e, e.retryAfterMs, e.timeoutMs]).toEqual([false, false, 100, 250]);
  });
});
