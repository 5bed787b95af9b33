import { describe, expect, it } from "vitest";
import { checkRecord, ingestBatchSchema, LIMITS, timeSchema } from "@/lib/contracts";
import { adkToolCallSpanSchema, checkAdkRecord } from "@/lib/contracts/adk";

const NOW = Date.now();
const T = Date.UTC(2026, 10, 1, 12, 0, 0);

const span = (over: Record<string, unknown> = {}) => ({
  type: "tool_call_span",
  id: "span-1",
  run_id: "run-1",
  call_id: "toolu_01",
  tool: "cancel_booking",
  attempt: 1,
  started_at: T,
  ended_at: T + 40,
  outcome: "failed",
  code: "upstream_unavailable",
  error_class: "ToolFailure",
  retryable: true,
  retry_after_ms: 2000,
  backoff_ms: 2000,
  ...over,
});
const run = (over: Record<string, unknown> = {}) => ({
  type: "run",
  id: "rec-1",
  run_id: "run-1",
  agent: "support-agent",
  started_at: T,
  ended_at: T + 1000,
  state: "completed",
  ...over,
});
const toolError = (over: Record<string, unknown> = {}) => ({
  type: "tool_error",
  id: "evt-1",
  run_id: "run-1",
  call_id: "toolu_01",
  tool: "cancel_booking",
  code: "booking_not_cancellable",
  error_class: "ToolRefusal",
  retryable: false,
  attempts: 1,
  decision: "delivered",
  told: "booking_not_cancellable: this fare is non-refundable",
  occurred_at: T,
  ...over,
});

function verdict(record: unknown) {
  const r = checkRecord(record, 0);
  return r.ok ? "ok" : `${r.rejection.code}: ${r.rejection.message}`;
}

describe("time fields", () => {
  it.each([
    [T, T],
    ["2026-11-01T12:00:00Z", T],
    ["2026-11-01T12:00:00.000+00:00", T],
    ["2026-11-01T13:30:00+01:30", T],
    [Date.UTC(2000, 0, 1), Date.UTC(2000, 0, 1)],
  ])("accepts %s", (input, expected) => {
    expect(timeSchema.parse(input)).toBe(expected);
  });

  it.each([
    [Date.UTC(1999, 11, 31, 23, 59, 59), "must not be before 2000-01-01T00:00:00Z"],
    [NOW + 2 * 86_400_000, "must not be more than one day in the future"],
    [1_762_000_000, "must not be before 2000-01-01T00:00:00Z"], // seconds, not milliseconds
    [T + 0.5, "must be an integer number of epoch milliseconds"],
    ["yesterday", "must be epoch milliseconds or an RFC 3339 date-time"],
    ["2026-13-45T99:00:00Z", "is not a valid date-time"],
    [true, "must be epoch milliseconds or an RFC 3339 date-time"],
  ])("rejects %s", (input, message) => {
    const r = timeSchema.safeParse(input);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(message);
  });
});

describe("records", () => {
  it("accepts the three record types", () => {
    expect(verdict(span())).toBe("ok");
    expect(verdict(run())).toBe("ok");
    expect(verdict(toolError())).toBe("ok");
  });

  it.each<[string, unknown, string]>([
    ["a non-object", [1, 2], "not_an_object: record must be a JSON object"],
    ["null", null, "not_an_object: record must be a JSON object"],
    ["an unknown type", { type: "metric", id: "m" }, "unknown_type: type must be one of run, tool_call_span, tool_error"],
    ["a missing type", { id: "m" }, "unknown_type: type must be one of run, tool_call_span, tool_error"],
    ["attempt 0", span({ attempt: 0 }), "invalid_record: attempt: must be at least 1"],
    ["attempt 1001", span({ attempt: 1001 }), "invalid_record: attempt: must be at most 1000"],
    ["attempt 1.5", span({ attempt: 1.5 }), "invalid_record: attempt: must be an integer"],
    ["an unknown outcome", span({ outcome: "exploded" }), "invalid_record: outcome: Invalid option: expected one of \"ok\"|\"failed\"|\"declined\"|\"refused\"|\"not_found\"|\"timed_out\"|\"invalid_arguments\"|\"result_rejected\"|\"cancelled\""],
    ["an unknown error class", span({ error_class: "Oops" }), "invalid_record: error_class: Invalid option: expected one of \"ToolFailure\"|\"ToolRefusal\"|\"ToolTimedOutError\"|\"ToolNotPermittedError\"|\"ToolNotFoundError\"|\"ToolArgumentValidationError\"|\"ToolResultError\""],
    ["an unknown decision", toolError({ decision: "ignored" }), "invalid_record: decision: Invalid option: expected one of \"retried\"|\"surfaced\"|\"delivered\"|\"failed_run\"|\"failed_closed\"|\"exhausted\"|\"budget_capped\"|\"cancelled\""],
    ["an unknown run state", run({ state: "exploded" }), "invalid_record: state: Invalid option: expected one of \"pending\"|\"running\"|\"suspended\"|\"completed\"|\"failed\"|\"cancelled\""],
    ["a negative retry_after", span({ retry_after_ms: -1 }), "invalid_record: retry_after_ms: must not be negative"],
    ["a retry_after over a day", span({ retry_after_ms: 86_400_001 }), "invalid_record: retry_after_ms: must be at most one day"],
    ["an empty id", span({ id: "" }), "invalid_record: id: must not be empty"],
    ["a long id", span({ id: "x".repeat(129) }), "invalid_record: id: must be at most 128 characters"],
    ["a control character in a tool name", span({ tool: "can\u0000cel" }), "invalid_record: tool: must not contain control characters"],
    ["a long code", span({ code: "c".repeat(129) }), "invalid_record: code: must be at most 128 characters"],
    ["ended before started", span({ ended_at: T - 1 }), "invalid_record: ended_at: must not be before started_at"],
    ["a missing tool", span({ tool: undefined }), "invalid_record: tool: Invalid input: expected string, received undefined"],
    ["a told text over 16 KiB", toolError({ told: "t".repeat(LIMITS.maxTextLength + 1) }), "invalid_record: told: must be at most 16384 characters"],
    ["a missing told (null says nothing was told; absent says nothing)", toolError({ told: undefined }), "invalid_record: told: Invalid input: expected string, received undefined"],
    ["retryable as a string", toolError({ retryable: "yes" }), "invalid_record: retryable: Invalid input: expected boolean, received string"],
  ])("rejects %s", (_label, record, expected) => {
    expect(verdict(record)).toBe(expected);
  });

  it("rejects a record over 64 KiB before validating it", () => {
    const r = checkRecord(span({ padding: "p".repeat(LIMITS.maxRecordBytes) }), 7);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.rejection.code).toBe("record_too_large");
      expect(r.rejection.index).toBe(7);
      expect(r.rejection.id).toBe("span-1");
    }
  });

  it("measures nested unknown fields too", () => {
    const r = checkRecord(span({ extra: { deep: Array(20_000).fill(1234) } }), 3);
    expect(r.ok ? "ok" : r.rejection.code).toBe("record_too_large");
    const small = checkRecord(span({ extra: { deep: [1, 2, 3] } }), 3);
    expect(small.ok).toBe(true);
  });

  it("ignores unknown fields and cannot be polluted through __proto__ or constructor", () => {
    const hostile = JSON.parse(
      JSON.stringify(span()).replace("{", '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"extra":1,'),
    );
    const r = checkRecord(hostile, 0);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(Object.keys(r.record)).not.toContain("extra");
      expect(Object.prototype.hasOwnProperty.call(r.record, "__proto__")).toBe(false);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("accepts told: null, the model was told nothing (the run failed first)", () => {
    const r = checkRecord(toolError({ told: null, decision: "failed_run", error_class: "ToolFailure", code: "upstream_broken" }), 0);
    expect(r.ok && r.record.type === "tool_error" && [r.record.told, r.record.decision]).toEqual([null, "failed_run"]);
  });

  it("accepts nullish optional fields and RFC 3339 times", () => {
    const r = checkRecord(span({ code: null, error_class: null, retry_after_ms: null, started_at: "2026-11-01T12:00:00Z", ended_at: "2026-11-01T12:00:00.040Z" }), 0);
    expect(r.ok && r.record.type === "tool_call_span" && [r.record.started_at, r.record.ended_at]).toEqual([T, T + 40]);
  });
});

describe("batch envelope", () => {
  it("accepts 1000 records and rejects 1001", () => {
    expect(ingestBatchSchema.safeParse({ records: Array(1000).fill({}) }).success).toBe(true);
    const r = ingestBatchSchema.safeParse({ records: Array(1001).fill({}) });
    expect(r.error?.issues[0]?.message).toBe("must contain at most 1000 records");
  });

  it("rejects an empty batch and a missing records array", () => {
    expect(ingestBatchSchema.safeParse({ records: [] }).error?.issues[0]?.message).toBe("must contain at least one record");
    expect(ingestBatchSchema.safeParse({}).success).toBe(false);
  });

  it("validates the resource block", () => {
    expect(ingestBatchSchema.safeParse({ resource: { service: "a", release: "1.0.0", sdk: { name: "x", version: "0.1.0" } }, records: [{}] }).success).toBe(true);
    expect(ingestBatchSchema.safeParse({ resource: { release: "" }, records: [{}] }).success).toBe(false);
    expect(ingestBatchSchema.safeParse({ resource: { sdk: { name: "x" } }, records: [{}] }).success).toBe(false);
  });
});

describe("reference-kit ToolCallSpan records", () => {
  const kit = { tool: "book", agent: "planner", permitted: true, outcome: "error", duration_seconds: 0.25, failure: "ToolFailure", code: "upstream_broken", abandoned: false };
  const verdict = (record: unknown) => {
    const r = checkAdkRecord(adkToolCallSpanSchema, record, 0, "id");
    return r.ok ? "ok" : `${r.rejection.code}: ${r.rejection.message}`;
  };

  it("accepts a record exactly as the kit emits it: no id, run, call, attempt or time", () => {
    const r = checkAdkRecord(adkToolCallSpanSchema, kit, 0, "id");
    expect(r.ok && [r.record.id, r.record.at, r.record.attempt, r.record.run_id, r.record.outcome]).toEqual([undefined, undefined, undefined, undefined, "error"]);
  });

  it.each([
    ["an attempt of 0", { ...kit, attempt: 0 }, "invalid_record: attempt: must be at least 1"],
    ["a time in milliseconds", { ...kit, at: 1767225600000 }, "invalid_record: at: must not be more than one day in the future (Unix seconds, not milliseconds)"],
    ["an empty release", { ...kit, release: "" }, "invalid_record: release: must not be empty"],
  ])("rejects %s", (_label, record, expected) => {
    expect(verdict(record)).toBe(expected);
  });
});
