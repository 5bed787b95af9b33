import { describe, expect, it } from "vitest";
import { checkRecord, LIMITS, MAX_RECORD_DEPTH, measureRecord } from "@/lib/contracts";

const nested = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const run = { type: "run", id: "r1", run_id: "r1", agent: "a", started_at: Date.UTC(2026, 0, 1), state: "completed" };

describe("record measurement without recursion", () => {
  it("rejects a 10,000-level value in an unknown field without overflowing the stack", () => {
    expect(checkRecord({ ...run, extra: nested(10_000) }, 3)).toEqual({
      ok: false,
      rejection: { index: 3, id: "r1", code: "invalid_record", message: `record nests deeper than ${MAX_RECORD_DEPTH} levels` },
    });
  });
  it("accepts nesting up to the limit and ignores the unknown field", () => {
    const check = checkRecord({ ...run, extra: nested(MAX_RECORD_DEPTH - 1) }, 0);
    expect(check.ok).toBe(true);
  });
  it("measures flat records without serialising them, and large ones exactly", () => {
    expect(measureRecord(run)).toBe(0);
    const big = { ...run, extra: ["x".repeat(LIMITS.maxRecordBytes)] };
    expect(measureRecord(big)).toBe(new TextEncoder().encode(JSON.stringify(big)).length);
  });
});
