import protobuf from "protobufjs";

// No installed package ships the OTLP .proto files (the JS exporters hand-write their encoder), so the
// trace messages are declared here for protobufjs, with the field numbers of
// open-telemetry/opentelemetry-proto (common/v1, resource/v1, trace/v1, collector/trace/v1). Only the
// fields Faultline reads are declared; protobufjs skips every other field number, so newer senders
// still decode. protobufjs does all of the wire decoding and encoding.
const f = (type: string, id: number, repeated = false) => (repeated ? { type, id, rule: "repeated" } : { type, id });

const descriptor = {
  nested: {
    otlp: {
      nested: {
        AnyValue: {
          oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue"] } },
          fields: {
            stringValue: f("string", 1),
            boolValue: f("bool", 2),
            intValue: f("int64", 3),
            doubleValue: f("double", 4),
            arrayValue: f("ArrayValue", 5),
            kvlistValue: f("KeyValueList", 6),
            bytesValue: f("bytes", 7),
          },
        },
        ArrayValue: { fields: { values: f("AnyValue", 1, true) } },
        KeyValueList: { fields: { values: f("KeyValue", 1, true) } },
        KeyValue: { fields: { key: f("string", 1), value: f("AnyValue", 2) } },
        InstrumentationScope: { fields: { name: f("string", 1), version: f("string", 2), attributes: f("KeyValue", 3, true) } },
        Resource: { fields: { attributes: f("KeyValue", 1, true) } },
        Status: { fields: { message: f("string", 2), code: f("int32", 3) } },
        SpanEvent: { fields: { timeUnixNano: f("fixed64", 1), name: f("string", 2), attributes: f("KeyValue", 3, true) } },
        Span: {
          fields: {
            traceId: f("bytes", 1),
            spanId: f("bytes", 2),
            parentSpanId: f("bytes", 4),
            name: f("string", 5),
            kind: f("int32", 6),
            startTimeUnixNano: f("fixed64", 7),
            endTimeUnixNano: f("fixed64", 8),
            attributes: f("KeyValue", 9, true),
            events: f("SpanEvent", 11, true),
            status: f("Status", 15),
          },
        },
        ScopeSpans: { fields: { scope: f("InstrumentationScope", 1), spans: f("Span", 2, true) } },
        ResourceSpans: { fields: { resource: f("Resource", 1), scopeSpans: f("ScopeSpans", 2, true) } },
        ExportTraceServiceRequest: { fields: { resourceSpans: f("ResourceSpans", 1, true) } },
        ExportTracePartialSuccess: { fields: { rejectedSpans: f("int64", 1), errorMessage: f("string", 2) } },
        ExportTraceServiceResponse: { fields: { partialSuccess: f("ExportTracePartialSuccess", 1) } },
        // google.rpc.Status, the body of OTLP/HTTP error answers (details are not sent).
        RpcStatus: { fields: { code: f("int32", 1), message: f("string", 2) } },
      },
    },
  },
};

let root: protobuf.Root | undefined;

/** The OTLP trace message types, built once. */
export function otlpType(name: "ExportTraceServiceRequest" | "ExportTraceServiceResponse" | "RpcStatus"): protobuf.Type {
  root ??= protobuf.Root.fromJSON(descriptor);
  return root.lookupType(`otlp.${name}`);
}
