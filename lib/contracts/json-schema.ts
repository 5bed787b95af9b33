import { z } from "zod";
import { resourceSchema } from "./batch";
import { runRecordSchema, toolCallSpanRecordSchema, toolErrorRecordSchema } from "./records";

const DEFS = { run: runRecordSchema, tool_call_span: toolCallSpanRecordSchema, tool_error: toolErrorRecordSchema, resource: resourceSchema };

/**
 * The native records and the batch resource as JSON Schema (draft 2020-12), for emitters in other
 * languages (sdk/python): `$defs` per record type and the resource, the document itself accepts
 * any one record. Input side: a time is epoch milliseconds or an RFC 3339 string, as sent.
 * Refinements JSON Schema cannot say (ended_at not before started_at, the time window) are checked
 * by the server only.
 */
export function recordJsonSchemaText(): string {
  const $defs: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(DEFS)) {
    const { $schema: _drop, ...def } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" });
    $defs[name] = def;
  }
  const document = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://faultline.dev/schema/records.json",
    title: "Faultline native ingest record",
    oneOf: ["run", "tool_call_span", "tool_error"].map((name) => ({ $ref: `#/$defs/${name}` })),
    $defs,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
