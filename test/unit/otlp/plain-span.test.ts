import { describe, expect, it } from "vitest";
import { checkSpan, checkSpanBySchema, plainSpan } from "@/lib/ingest/otlp/decode";

// checkSpan reads the common span by hand (plainSpan) and leaves the rest to the schema: for every
// span, valid or not, its answer must be the schema's, and the plain spans must take the hand path.

const base = {
  traceId: "4BF92F3577B34DA6A3CE929D0E0E4736",
  spanId: "00F067AA0BA902B7",
  parentSpanId: "53995c3f42cd8ad8",
  name: "execute_tool search",
  kind: 1,
  startTimeUnixNano: "1767225600005000000",
  endTimeUnixNano: 1767225600105000000,
  attributes: [
    { key: "gen_ai.tool.name", value: { stringValue: "search" } },
    { key: "n", value: { intValue: "7" } },
    { key: "no_value" },
    { key: "list", value: { arrayValue: { values: [{ stringValue: "a" }, { boolValue: true }] } } },
  ],
  events: [
    { name: "exception", timeUnixNano: "1767225600100000000", attributes: [{ key: "exception.type", value: { stringValue: "TimeoutError" } }] },
    { timeUnixNano: 1767225600101000000 },
    {},
  ],
  status: { code: 2, message: "timed out" },
  droppedAttributesCount: 0,
};

const FIELD_VALUES: Record<string, unknown[]> = {
  traceId: [undefined, null, "", "0".repeat(32), "4bf92f3577b34da6a3ce929d0e0e473", "4bf92f3577b34da6a3ce929d0e0e47366", "4bf92f3577b34da6a3ce929d0e0e473g", "4bf92f3577b34da6a3ce929d0e0e4736\n", 42],
  spanId: [undefined, null, "", "0000000000000000", "00f067aa0ba902b", "00F067AA0BA902B7", 7],
  parentSpanId: [undefined, null, "", "0000000000000000", "53995C3F42CD8AD8", "53995c3f42cd8ad", 0],
  name: [undefined, null, "", "x".repeat(1024), "x".repeat(1025), "😀".repeat(600), "😀".repeat(1025), 5],
  kind: [undefined, null, 0, 3, -1, 1.5, 2 ** 60, "SPAN_KIND_INTERNAL", "", true, Number.NaN],
  startTimeUnixNano: [undefined, null, "", "0", "-1", "1.5", "123456789012345678901", "12345678901234567890", 0, -1, 1.5, 2 ** 70, Number.POSITIVE_INFINITY, " 1"],
  endTimeUnixNano: [undefined, "1767225600005000000", 1767225600005000000, "abc"],
  attributes: [undefined, null, [], {}, "x", [null], [[]], [{ key: 1 }], [{ value: { stringValue: "v" } }], [{ key: "k", value: null }], [{ key: "a" }, { key: "a", value: { intValue: 1 } }]],
  events: [undefined, null, [], {}, [null], [[]], [{ name: 3 }], [{ timeUnixNano: "x" }], [{ attributes: "x" }], [{ name: "e", attributes: [{ key: 2 }] }]],
  status: [undefined, null, {}, [], "x", { code: 0 }, { code: 1.5 }, { code: 2 ** 60 }, { code: "STATUS_CODE_ERROR" }, { code: "STATUS_CODE_OK", message: "" }, { code: "STATUS_CODE_UNSET" }, { code: "ERROR" }, { code: "toString" }, { message: 4 }, { message: "m" }, { code: null }],
};

const withField = (field: string, value: unknown): Record<string, unknown> => {
  const span: Record<string, unknown> = { ...base };
  if (value === undefined) delete span[field];
  else span[field] = value;
  return span;
};

describe("plain OTLP spans read by hand", () => {
  it("takes the hand path for common spans and agrees with the schema", () => {
    for (const span of [base, { traceId: base.traceId, spanId: base.spanId, startTimeUnixNano: "1", endTimeUnixNano: "2" }]) {
      expect(plainSpan(span)).not.toBeNull();
      expect(checkSpan(span)).toEqual(checkSpanBySchema(span));
    }
    const read = checkSpan(base);
    expect(read.ok && read.span).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", statusCode: 2, statusMessage: "timed out" });
  });

  for (const [field, values] of Object.entries(FIELD_VALUES)) {
    it(`answers as the schema does for every ${field}`, () => {
      for (const value of values) {
        const span = withField(field, value);
        const schema = checkSpanBySchema(span);
        expect(checkSpan(span), `${field} = ${String(value)}`).toEqual(schema);
        // The hand path never accepts what the schema refuses.
        if (!schema.ok) expect(plainSpan(span)).toBeNull();
      }
    });
  }

  it("answers as the schema does for what is not an object", () => {
    for (const raw of [null, undefined, 1, "span", [], [base], true]) expect(checkSpan(raw)).toEqual(checkSpanBySchema(raw));
  });
});
