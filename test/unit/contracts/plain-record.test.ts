import { describe, expect, it } from "vitest";
import { checkRecord } from "@/lib/contracts";
import { checkNativeRecord, plainSpanRecord } from "@/lib/ingest/plain-record";

// The native format reads plainly valid tool call spans by hand (plainSpanRecord) and leaves the rest
// to the schema: for every record, valid or not, its answer must be checkRecord's, and the plain
// records must take the hand path.

const NOW = Date.now();
const base = {
  type: "tool_call_span",
  id: "span-1",
  trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
  parent_span_id: null,
  run_id: "run-1",
  call_id: "call-1",
  tool: "  search_flights ",
  tool_version: "1.4.0",
  attempt: 2,
  started_at: NOW - 60_000,
  ended_at: NOW - 59_000,
  outcome: "failed",
  code: "rate_limited",
  error_class: "ToolFailure",
  retryable: true,
  retry_after_ms: 2000,
  backoff_ms: 1500,
  decision: "retried",
  permitted: null,
  abandoned: false,
  message: "too many requests",
  args_hash: "0123456789abcdef",
  after_error: null,
  service: " agent ",
  release: "2026.12.0",
  environment: "prod",
  unknown_field: { nested: [1, 2] },
};

const id = ["", " ", "x".repeat(128), "x".repeat(129), "😀".repeat(100), "a\u0000b", "a\nb", "a\u007fb", 5, null];
const name = ["", "   ", " t ", "x".repeat(200), ` ${"x".repeat(200)} `, "x".repeat(201), "t\tx", "😀".repeat(150), 1, null];
const version = ["", "1", "x".repeat(64), "x".repeat(65), " 1 ", "1\u0001", 2, null];
const bool = [true, false, null, 0, "true"];
const delay = [0, 1, 86_400_000, 86_400_001, -1, 1.5, "1", null, 2 ** 60];
const FIELD_VALUES: Record<string, unknown[]> = {
  type: ["tool_call_span", "run", "tool_error", "span", null],
  id: [undefined, ...id],
  trace_id: [undefined, ...id],
  parent_span_id: [undefined, ...id],
  run_id: [undefined, ...id],
  call_id: [undefined, ...id],
  tool: [undefined, ...name],
  tool_version: [undefined, ...version],
  attempt: [undefined, 0, 1, 1000, 1001, 1.5, -1, "1", null, Number.MAX_SAFE_INTEGER + 1],
  started_at: [undefined, NOW - 59_000, NOW - 59_001, NOW - 58_999, 946_684_799_999, 946_684_800_000, NOW + 86_400_000 - 5_000, NOW + 2 * 86_400_000, 1.5, "2026-12-05T07:00:00Z", "2026-12-05 07:00:00Z", "yesterday", null],
  ended_at: [undefined, NOW - 60_000, NOW - 60_001, 1.5, "2099-01-01T00:00:00Z", new Date(NOW).toISOString(), null],
  outcome: [undefined, "ok", "failed", "declined", "refused", "timed_out", "cancelled", "bogus", null],
  code: [undefined, "", "x".repeat(128), "x".repeat(129), "c\u0000", 1, null],
  error_class: [undefined, "ToolFailure", "ToolRefusal", "NotAClass", null, 1],
  retryable: [undefined, ...bool],
  retry_after_ms: [undefined, ...delay],
  backoff_ms: [undefined, ...delay],
  decision: [undefined, "retried", "surfaced", "failed_closed", "maybe", null],
  permitted: [undefined, ...bool],
  abandoned: [undefined, ...bool],
  message: [undefined, "", "m\u0000x", "x".repeat(16 * 1024), "x".repeat(16 * 1024 + 1), 4, null],
  args_hash: [undefined, "0123abcd", "0123abc", "0123ABCD", "f".repeat(64), "f".repeat(65), null, 1],
  after_error: [undefined, ...id],
  service: [undefined, ...name],
  release: [undefined, ...version],
  environment: [undefined, ...name],
  unknown_field: [undefined, "x".repeat(70_000), JSON.parse("[".repeat(70) + "]".repeat(70)), { a: 1 }],
};

const withField = (field: string, value: unknown): Record<string, unknown> => {
  const record: Record<string, unknown> = { ...base };
  if (value === undefined) delete record[field];
  else record[field] = value;
  return record;
};

describe("plain native span records read by hand", () => {
  it("takes the hand path for a common span and answers as the schema does", () => {
    expect(plainSpanRecord(base)).not.toBeNull();
    expect(checkNativeRecord(base, 3)).toEqual(checkRecord(base, 3));
    const minimal = { type: "tool_call_span", id: "s", run_id: "r", call_id: "c", tool: "t", attempt: 1, started_at: NOW, ended_at: NOW, outcome: "ok" };
    expect(plainSpanRecord(minimal)).not.toBeNull();
    expect(checkNativeRecord(minimal, 0)).toEqual(checkRecord(minimal, 0));
    const read = checkNativeRecord(base, 0);
    expect(read.ok && read.record).toMatchObject({ tool: "search_flights", service: "agent", parent_span_id: null, after_error: null });
    expect(read.ok && "unknown_field" in read.record).toBe(false);
  });

  for (const [field, values] of Object.entries(FIELD_VALUES)) {
    it(`answers as the schema does for every ${field}`, () => {
      for (const value of values) {
        const record = withField(field, value);
        const schema = checkRecord(record, 7);
        expect(checkNativeRecord(record, 7), `${field} = ${JSON.stringify(value)?.slice(0, 40)}`).toEqual(schema);
        if (!schema.ok) expect(plainSpanRecord(record)).toBeNull();
      }
    });
  }

  it("answers as the schema does for records that are not objects or not spans", () => {
    for (const raw of [null, 1, "x", [], [base], { type: "run", id: "r", run_id: "r", agent: "a", started_at: NOW, state: "running" }]) {
      expect(checkNativeRecord(raw, 1)).toEqual(checkRecord(raw, 1));
    }
  });
});
