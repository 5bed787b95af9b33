import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordJsonSchemaText } from "@/lib/contracts/json-schema";

describe("JSON Schema of the wire records (sdk/python validates against it)", () => {
  it("the committed file is current (regenerate: npx tsx scripts/gen-record-schema.ts)", () => {
    const file = path.join(import.meta.dirname, "../../sdk/python/src/faultline/schema/records.json");
    expect(readFileSync(file, "utf8")).toBe(recordJsonSchemaText());
  });

  it("names every record type and the fields the server requires", () => {
    const schema = JSON.parse(recordJsonSchemaText()) as { $defs: Record<string, { required?: string[]; properties: Record<string, unknown> }> };
    expect(Object.keys(schema.$defs).sort()).toEqual(["resource", "run", "tool_call_span", "tool_error"]);
    expect(schema.$defs.tool_error!.required!.sort()).toEqual(
      ["attempts", "call_id", "code", "decision", "error_class", "id", "occurred_at", "retryable", "run_id", "told", "tool", "type"].sort(),
    );
    expect(schema.$defs.tool_call_span!.properties).toHaveProperty("args_hash");
  });
});
