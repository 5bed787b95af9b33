import { describe, expect, it } from "vitest";
import { ingestRecordSchema } from "@/lib/contracts";
import { normalizeNative } from "@/lib/ingest/normalize-native";
import { emptyRowBatch } from "@/lib/ingest/rows";

const T = Date.now() - 60_000;
const base = {
  type: "tool_error", id: "e1", run_id: "r1", call_id: "c1", tool: "book_flight", code: "fare_class_unavailable",
  error_class: "ToolFailure", retryable: false, attempts: 1, decision: "surfaced", told: "error: fare_class_unavailable", occurred_at: T,
};

describe("experiment and variant on tool_error records", () => {
  it("accepts both, stores both, and leaves code, class, retryable and decision as sent", () => {
    const record = ingestRecordSchema.parse({ ...base, experiment: "fare-wording", variant: "b" });
    const batch = normalizeNative(undefined, [{ index: 0, record }], emptyRowBatch());
    expect(batch.toolErrors[0]!.row).toMatchObject({
      experiment: "fare-wording", variant: "b", code: "fare_class_unavailable", errorClass: "ToolFailure", retryable: false, decision: "surfaced",
    });
  });

  it("stores null for both when the record names no experiment", () => {
    const record = ingestRecordSchema.parse(base);
    const batch = normalizeNative(undefined, [{ index: 0, record }], emptyRowBatch());
    expect(batch.toolErrors[0]!.row).toMatchObject({ experiment: null, variant: null });
  });

  it("refuses an experiment without its variant and a variant without its experiment", () => {
    for (const half of [{ experiment: "fare-wording" }, { variant: "b" }]) {
      const result = ingestRecordSchema.safeParse({ ...base, ...half });
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((i) => i.path.join("."))).toEqual(["variant"]);
    }
  });
});
