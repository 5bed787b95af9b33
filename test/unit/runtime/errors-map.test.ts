import { describe, expect, it } from "vitest";
import {
  DEFAULT_CODES,
  ToolArgumentValidationError,
  ToolErrorMap,
  ToolFailure,
  ToolNotFoundError,
  ToolNotPermittedError,
  ToolRefusal,
  ToolResultError,
  ToolTimedOutError,
  isToolError,
  isUnmapped,
  permanent,
  readStatus,
  refusal,
  transient,
} from "../../../lib/runtime";

class HttpError extends Error {
  constructor(message: string, readonly status?: unknown, readonly statusCode?: unknown) {
    super(message);
  }
}
class ConnectError extends Error {}
class ConnectTimeout extends ConnectError {}

describe("taxonomy", () => {
  it("transient failure is retryable, keeps tool and code; default is permanent", () => {
    const t = new ToolFailure("book", "upstream_unavailable", { transient: true });
    expect([t.retryable, t.tool, t.code, t.outcome, t.errorClass]).toEqual([true, "book", "upstream_unavailable", "failed", "ToolFailure"]);
    expect(new ToolFailure("book", "upstream_rejected").retryable).toBe(false);
  });

  it("refusal is never retryable and keeps its message", () => {
    const r = new ToolRefusal("cancel", "booking_not_cancellable", "this fare is non-refundable");
    expect([r.retryable, r.detail, r.retryAfterMs, r.outcome]).toEqual([false, "this fare is non-refundable", undefined, "declined"]);
  });

  it("exposes retryAfterMs unchanged", () => {
    expect(new ToolFailure("t", "rate_limited", { transient: true, retryAfterMs: 30_000 }).retryAfterMs).toBe(30_000);
  });

  it.each([[""], ["   "], [undefined], [null], [42], ["a\u0000b"], ["x".repeat(129)]])("rejects code %j", (code) => {
    expect(() => new ToolFailure("t", code as string)).toThrow(/code/);
    expect(() => new ToolRefusal("t", code as string, "m")).toThrow(/code/);
  });

  it("accepts any non-empty code, including spaces and upper case", () => {
    expect(new ToolFailure("t", "Upstream Down").code).toBe("Upstream Down");
  });

  it("rejects a negative or non-finite retryAfterMs", () => {
    expect(() => new ToolFailure("t", "c", { retryAfterMs: -1 })).toThrow(/retryAfterMs/);
    expect(() => new ToolFailure("t", "c", { retryAfterMs: Number.NaN })).toThrow(/retryAfterMs/);
  });

  it("gives the kit's own classes documented default codes and outcomes", () => {
    const cases = [
      [new ToolTimedOutError("t", { timeoutMs: 5000 }), DEFAULT_CODES.timedOut, "timed_out"],
      [new ToolNotPermittedError("t", { agent: "planner" }), DEFAULT_CODES.notPermitted, "refused"],
      [new ToolNotFoundError("t"), DEFAULT_CODES.notFound, "not_found"],
      [new ToolArgumentValidationError("t", { problems: { when: "must be a date" } }), DEFAULT_CODES.invalidArguments, "invalid_arguments"],
      [new ToolResultError("t", { violation: "not JSON" }), DEFAULT_CODES.resultRejected, "result_rejected"],
    ] as const;
    for (const [error, code, outcome] of cases) {
      expect(error.code).toBe(code);
      expect(error.outcome).toBe(outcome);
      expect(error.retryable).toBe(false);
      expect(isToolError(error)).toBe(true);
    }
    expect(new ToolTimedOutError("t", { code: "supplier_slow" }).code).toBe("supplier_slow");
  });

  it("argument feedback lists sorted paths and never echoes values", () => {
    const e = new ToolArgumentValidationError("book", { problems: { "to": "must be an IATA code", "date": "must be in the future" } });
    expect(e.feedback()).toBe(
      "invalid_arguments: book did not run because its arguments were rejected.\n- date: must be in the future\n- to: must be an IATA code\nCall the tool again with corrected arguments. The values you sent are not repeated here.",
    );
  });
});

describe("ToolErrorMap", () => {
  const map = new ToolErrorMap(
    [
      [ConnectError, transient("upstream_unavailable", { retryAfterMs: 2000 })],
      [ConnectTimeout, transient("upstream_slow")],
      [HttpError, permanent("upstream_rejected")],
    ],
    { statuses: { 409: refusal("booking_not_cancellable", "This fare is non-refundable.") } },
  );
  const statusOnly = new ToolErrorMap([], { statuses: { 409: refusal("booking_not_cancellable", "no"), 503: transient("upstream_unavailable") } });

  it("maps a library error to a retryable failure with the rule's retryAfterMs", () => {
    const e = map.classify(new ConnectError("reset"), { tool: "book" });
    expect([e.errorClass, e.code, e.retryable, e.retryAfterMs, e.detail]).toEqual(["ToolFailure", "upstream_unavailable", true, 2000, "reset"]);
  });

  it("lets the most specific class on the prototype chain win", () => {
    expect(map.classify(new ConnectTimeout("slow"), { tool: "book" }).code).toBe("upstream_slow");
  });

  it("maps an unmapped error to a permanent unmapped_failure", () => {
    const e = map.classify(new RangeError("boom"), { tool: "book" });
    expect([e.code, e.retryable, isUnmapped(e)]).toEqual(["unmapped_failure", false, true]);
    expect(map.classify("a string", { tool: "t" }).code).toBe("unmapped_failure");
  });

  it("maps statuses to refusals, reading statusCode, status_code, status, response.status", () => {
    expect(statusOnly.classify({ statusCode: 409 }, { tool: "cancel" }).errorClass).toBe("ToolRefusal");
    expect(statusOnly.classify({ status_code: 409 }, { tool: "cancel" }).code).toBe("booking_not_cancellable");
    expect(statusOnly.classify({ response: { status: 503 } }, { tool: "t" }).retryable).toBe(true);
    expect(readStatus({ statusCode: 409, status: 503 })).toBe(409);
    expect(readStatus({ status: "409" })).toBeUndefined();
    expect(readStatus({ status: true })).toBeUndefined();
  });

  it("lets any class rule, however generic, pre-empt status rules", () => {
    expect(map.classify(new HttpError("conflict", 409), { tool: "cancel" }).code).toBe("upstream_rejected");
  });

  it("re-throws cancellation instead of classifying it", () => {
    const abort = new DOMException("aborted", "AbortError");
    expect(() => map.classify(abort, { tool: "t" })).toThrow(abort);
    const controller = new AbortController();
    controller.abort();
    const other = new Error("socket closed");
    expect(() => map.classify(other, { tool: "t", signal: controller.signal })).toThrow(other);
  });

  it("returns an error already in the taxonomy untouched (identity)", () => {
    const typed = new ToolFailure("other_tool", "x");
    expect(map.classify(typed, { tool: "book" })).toBe(typed);
  });

  it("scrubs the upstream text; a rule message replaces it entirely", () => {
    const e = map.classify(new RangeError("bad key sk-live-abcdefghijklmnop"), { tool: "t" });
    expect(e.detail).not.toContain("sk-live-");
    expect(e.detail).toContain("[redacted:api_key]");
    const m = new ToolErrorMap([[RangeError, permanent("bad_input", { message: "the supplier refused the input" })]]);
    expect(m.classify(new RangeError("secret stuff"), { tool: "t" }).detail).toBe("the supplier refused the input");
  });

  it("reads retryAfterMs from the error when the rule says so", () => {
    const fromHeader = (e: unknown) => Number((e as { headers: Record<string, string> }).headers["retry-after"]) * 1000;
    const m = new ToolErrorMap([], { statuses: { 429: transient("rate_limited", { retryAfterMs: fromHeader }) } });
    expect(m.classify({ status: 429, headers: { "retry-after": "7" } }, { tool: "t" }).retryAfterMs).toBe(7000);
  });
});
