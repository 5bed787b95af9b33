import { describe, expect, it } from "vitest";
import { decodeAttributes } from "@/lib/ingest/otlp/attributes";
import { checkSpan, decodeJsonRequest, decodeProtobufRequest, OtlpDecodeError } from "@/lib/ingest/otlp/decode";
import { otlpType } from "@/lib/ingest/otlp/proto-schema";
import { decodeStatus, decodeTraceResponse, statusBody, traceResponseBody } from "@/lib/ingest/otlp/response";
import { i, ns, request, s, span, T0 } from "./fixtures";

describe("OTLP attribute decoding", () => {
  it("reads every AnyValue kind, 64-bit integers as strings or numbers", () => {
    const attrs = decodeAttributes([
      s("a", "x"),
      i("b", "800"),
      i("c", 800),
      i("big", "9223372036854775807"),
      { key: "d", value: { doubleValue: 1.5 } },
      { key: "e", value: { boolValue: false } },
      { key: "f", value: { arrayValue: { values: [{ stringValue: "p" }, { intValue: "2" }] } } },
      { key: "g", value: { kvlistValue: { values: [s("inner", "v")] } } },
      { key: "h", value: {} },
    ]);
    expect(attrs.get("a")).toBe("x");
    expect(attrs.get("b")).toBe(800);
    expect(attrs.get("c")).toBe(800);
    expect(attrs.get("big")).toBe("9223372036854775807");
    expect(attrs.get("d")).toBe(1.5);
    expect(attrs.get("e")).toBe(false);
    expect(attrs.get("f")).toEqual(["p", 2]);
    expect((attrs.get("g") as Map<string, unknown>).get("inner")).toBe("v");
    expect(attrs.get("h")).toBeNull();
  });

  it("keeps __proto__ and constructor keys as plain data without touching prototypes", () => {
    const attrs = decodeAttributes(JSON.parse('[{"key":"__proto__","value":{"stringValue":"polluted"}},{"key":"constructor","value":{"kvlistValue":{"values":[{"key":"__proto__","value":{"boolValue":true}}]}}}]'));
    expect(attrs.get("__proto__")).toBe("polluted");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect((attrs.get("constructor") as Map<string, unknown>).get("__proto__")).toBe(true);
  });

  it("cuts off nesting deeper than the limit instead of recursing", () => {
    let value: Record<string, unknown> = { stringValue: "deep" };
    for (let n = 0; n < 50; n++) value = { arrayValue: { values: [value] } };
    const attrs = decodeAttributes([{ key: "deep", value }]);
    let v: unknown = attrs.get("deep");
    let depth = 0;
    while (Array.isArray(v)) {
      v = v[0];
      depth++;
    }
    expect(v).toBeNull();
    expect(depth).toBe(9);
  });
});

describe("OTLP span checks", () => {
  it("lower-cases upper-case hex ids and reads string and number timestamps alike", () => {
    const a = checkSpan(span({ traceId: "5B8EFFF798038103D269B633813FC60C", spanId: "EEE19B7EC3C1B174", startTimeUnixNano: ns(T0), endTimeUnixNano: Number(ns(T0 + 5)) }));
    expect(a.ok).toBe(true);
    if (!a.ok) return;
    expect(a.span.traceId).toBe("5b8efff798038103d269b633813fc60c");
    expect(a.span.spanId).toBe("eee19b7ec3c1b174");
    expect(a.span.startNs).toBe(1767225600000000000n);
    expect(a.span.endNs / 1_000_000n).toBe(1767225600005n);
  });

  it("ignores unknown fields and treats an empty parentSpanId as a root", () => {
    const a = checkSpan({ ...span({ parentSpanId: "" }), droppedLinksCount: 3, somethingNew: { x: 1 } });
    expect(a.ok && a.span.parentSpanId).toBeNull();
  });

  it("rejects bad ids and times with the field named", () => {
    expect(checkSpan(span({ spanId: "xyz" }))).toMatchObject({ ok: false, spanId: "xyz", reason: expect.stringContaining("spanId") });
    expect(checkSpan(span({ traceId: "00000000000000000000000000000000" }))).toMatchObject({ ok: false, reason: expect.stringContaining("zeroes") });
    expect(checkSpan(span({ startTimeUnixNano: "-5" }))).toMatchObject({ ok: false, reason: expect.stringContaining("startTimeUnixNano") });
    expect(checkSpan("nope")).toMatchObject({ ok: false, spanId: null });
  });

  it("accepts status codes as integers and tolerates their enum names", () => {
    const a = checkSpan(span({ status: { code: "STATUS_CODE_ERROR", message: "boom" } }));
    expect(a.ok && [a.span.statusCode, a.span.statusMessage]).toEqual([2, "boom"]);
  });
});

describe("OTLP request decoding", () => {
  it("reads the JSON envelope and refuses a wrong shape", () => {
    const decoded = decodeJsonRequest(request([span()]));
    expect(decoded.resources[0]!.attributes.get("service.name")).toBe("support-agent");
    expect(decoded.resources[0]!.scopes[0]).toMatchObject({ name: "my.agent.runtime", version: "1.4.0" });
    expect(decodeJsonRequest({}).resources).toEqual([]);
    expect(() => decodeJsonRequest({ resourceSpans: "no" })).toThrow(OtlpDecodeError);
    expect(() => decodeJsonRequest([1])).toThrow(OtlpDecodeError);
  });

  it("decodes protobuf bodies into the same form, ids as hex and longs as strings", () => {
    const type = otlpType("ExportTraceServiceRequest");
    const body = type
      .encode(
        type.fromObject({
          resourceSpans: [
            {
              resource: { attributes: [{ key: "service.name", value: { stringValue: "svc" } }] },
              scopeSpans: [
                {
                  scope: { name: "scope", version: "2" },
                  spans: [
                    {
                      traceId: Buffer.from("5b8efff798038103d269b633813fc60c", "hex"),
                      spanId: Buffer.from("eee19b7ec3c1b174", "hex"),
                      name: "execute_tool x",
                      startTimeUnixNano: "1767225600000000000",
                      endTimeUnixNano: "1767225601000000000",
                      attributes: [{ key: "faultline.attempt", value: { intValue: 2 } }],
                      status: { code: 2, message: "nope" },
                    },
                  ],
                },
              ],
            },
          ],
        }),
      )
      .finish();
    const decoded = decodeProtobufRequest(body);
    const check = checkSpan(decoded.resources[0]!.scopes[0]!.spans[0]);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.span).toMatchObject({ traceId: "5b8efff798038103d269b633813fc60c", spanId: "eee19b7ec3c1b174", parentSpanId: null, statusCode: 2, statusMessage: "nope" });
    expect(check.span.attributes.get("faultline.attempt")).toBe(2);
    expect(check.span.endNs).toBe(1767225601000000000n);
  });

  it("refuses a protobuf body that is not protobuf", () => {
    expect(() => decodeProtobufRequest(Buffer.from("this is not protobuf at all"))).toThrow(OtlpDecodeError);
  });
});

describe("OTLP answers", () => {
  it("leaves partialSuccess unset on full success and counts rejected spans as a string", () => {
    expect(traceResponseBody(0, "", "json")).toBe("{}");
    expect(JSON.parse(traceResponseBody(2, "span x: no tool", "json") as string)).toEqual({ partialSuccess: { rejectedSpans: "2", errorMessage: "span x: no tool" } });
    expect(decodeTraceResponse(traceResponseBody(2, "why", "protobuf") as Uint8Array)).toEqual({ partialSuccess: { rejectedSpans: "2", errorMessage: "why" } });
    expect((traceResponseBody(0, "", "protobuf") as Uint8Array).length).toBe(0);
  });

  it("encodes google.rpc.Status in both encodings", () => {
    expect(JSON.parse(statusBody({ code: 3, message: "bad" }, "json") as string)).toEqual({ code: 3, message: "bad", details: [] });
    expect(decodeStatus(statusBody({ code: 3, message: "bad" }, "protobuf") as Uint8Array)).toEqual({ code: 3, message: "bad" });
  });
});
