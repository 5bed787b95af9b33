import { describe, expect, it } from "vitest";
import { parseAttemptFailedDetail, parseRefusalDetail, parseToolErrorDetail } from "@/lib/ingest/otlp/adk-detail";

describe("tool_error detail grammar", () => {
  it("reads typed failures with and without a message and the attempts suffix", () => {
    expect(parseToolErrorDetail("upstream_unavailable")).toEqual({ variant: "typed", code: "upstream_unavailable", message: null, attempts: null });
    expect(parseToolErrorDetail("upstream_unavailable: connection reset after 3 attempts")).toEqual({ variant: "typed", code: "upstream_unavailable", message: "connection reset", attempts: 3 });
    expect(parseToolErrorDetail("booking_not_cancellable: a: b")).toEqual({ variant: "typed", code: "booking_not_cancellable", message: "a: b", attempts: null });
  });

  it("keeps untyped text as text, never as a code", () => {
    expect(parseToolErrorDetail("'lookup' is not in planner's allowlist, so it was not called")).toEqual({ variant: "text", text: "'lookup' is not in planner's allowlist, so it was not called", attempts: null, notIdempotent: false });
    expect(parseToolErrorDetail("connection refused by [redacted]; not declared idempotent, so it was not tried again")).toEqual({ variant: "text", text: "connection refused by [redacted]", attempts: null, notIdempotent: true });
    expect(parseToolErrorDetail("boom; not declared idempotent, so it was not tried again")).toMatchObject({ variant: "text", text: "boom" });
  });

  it("recognises the fixed sentences and empty details", () => {
    expect(parseToolErrorDetail("never dispatched: sibling failed")).toEqual({ variant: "never_dispatched", reason: "sibling failed" });
    expect(parseToolErrorDetail("stopped before it returned; declared idempotent, so safe to retry")).toEqual({ variant: "stopped_idempotent" });
    expect(parseToolErrorDetail(null)).toEqual({ variant: "empty" });
    expect(parseToolErrorDetail("")).toEqual({ variant: "empty" });
  });
});

describe("attempt_failed detail grammar", () => {
  it("reads attempt, code, message and the backoff of a typed failure", () => {
    expect(parseAttemptFailedDetail("attempt 1: book: upstream_unavailable \u2014 connection reset \u2014 retrying in 0.37s", "book")).toEqual({ attempt: 1, backoffMs: 370, code: "upstream_unavailable", message: "connection reset" });
    expect(parseAttemptFailedDetail("attempt 2: book: rate_limited \u2014 retrying in 30.00s", "book")).toEqual({ attempt: 2, backoffMs: 30_000, code: "rate_limited", message: null });
  });

  it("keeps an untyped failure as text and refuses other shapes", () => {
    expect(parseAttemptFailedDetail("attempt 1: ConnectionError: reset \u2014 retrying in 0.50s", "book")).toEqual({ attempt: 1, backoffMs: 500, code: null, message: "ConnectionError: reset" });
    expect(parseAttemptFailedDetail("attempt 1: RateLimitError: slow \u2014 no attempts left", "book")).toBeNull();
    expect(parseAttemptFailedDetail(null, "book")).toBeNull();
  });
});

describe("tool_refused detail grammar", () => {
  it("reads `<code>: <message>`, including an empty message", () => {
    expect(parseRefusalDetail("booking_not_cancellable: This fare is non-refundable.")).toEqual({ code: "booking_not_cancellable", message: "This fare is non-refundable." });
    expect(parseRefusalDetail("approval_denied: ")).toEqual({ code: "approval_denied", message: "" });
    expect(parseRefusalDetail(null)).toBeNull();
    expect(parseRefusalDetail("the result of 'search' was flagged")).toBeNull();
  });
});
