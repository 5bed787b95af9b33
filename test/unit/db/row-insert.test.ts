import { describe, expect, it } from "vitest";
import { openStore } from "@/db/client";
import { rowInsert } from "@/db/ingest/row-insert";
import { spanInsert } from "@/db/ingest/statements";
import { projects } from "@/db/schema/projects";

describe("raw inserts whose column list is the Drizzle table's", () => {
  it("list every column but the autoincrement pk, in table order", () => {
    expect(spanInsert.sql).toMatch(/^INSERT INTO tool_call_spans \(project_id, span_id, trace_id, parent_span_id, run_id, call_id, tool, tool_version, /);
    expect(spanInsert.sql).not.toMatch(/\bpk\b/);
    expect(spanInsert.sql).toMatch(/source, received_at\) VALUES \((\?, ){27}\?\) ON CONFLICT \(project_id, span_id\) DO NOTHING$/);
  });

  it("bind by field name, booleans as 0/1, and store the row", () => {
    const store = openStore(":memory:");
    const insert = rowInsert(projects, ["createdAt"], "ON CONFLICT DO NOTHING");
    store.sqlite.prepare(insert.sql).run(insert.bind({ createdAt: 5 }, { id: "p", name: "P" }));
    expect(store.sqlite.prepare("SELECT id, name, created_at FROM projects").all()).toEqual([{ id: "p", name: "P", created_at: 5 }]);
    const context = { projectId: "p", receivedAt: 3 };
    const row = {
      spanId: "s", traceId: null, parentSpanId: null, runId: "r", callId: "c", tool: "t", toolVersion: null, release: null,
      service: null, environment: null, sdkName: null, sdkVersion: null, attempt: 1, startedAt: 1, endedAt: 2, outcome: "ok", code: null,
      errorClass: null, retryable: true, retryAfterMs: null, backoffMs: null, decision: null, permitted: false, abandoned: null, message: null,
      source: "native",
    };
    expect(store.sqlite.prepare(spanInsert.sql).run(spanInsert.bind(context, row)).changes).toBe(1);
    expect(store.sqlite.prepare("SELECT retryable, permitted, abandoned FROM tool_call_spans").get()).toEqual({ retryable: 1, permitted: 0, abandoned: null });
    // @ts-expect-error every column must be given (null when unknown)
    spanInsert.bind(context, { ...row, message: undefined });
    // @ts-expect-error the batch's fields come from the context
    spanInsert.bind({ projectId: "p" }, row);
  });
});
