import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { rowInsert } from "@/db/ingest/row-insert";
import { spanInsert, toolErrorInsert } from "@/db/ingest/statements";
import { projects } from "@/db/schema/projects";
import { DIALECTS, openTestStore } from "../../helpers/stores";

const context = { projectId: "p", receivedAt: 3 };
const row = {
  spanId: "s", traceId: null, parentSpanId: null, runId: "r", callId: "c", tool: "t", emitterId: 1, attempt: 1, startedAt: 1, startedSubNs: null, endedAt: 2, outcome: "ok", code: null,
  errorClass: null, retryable: true, retryAfterMs: null, backoffMs: null, decision: null, permitted: false, abandoned: null, message: null,
  derived: null, argsHash: null, afterError: null,
};

describe("raw inserts whose column list is the Drizzle table's", () => {
  it("list every column but the autoincrement pk, in table order", () => {
    expect(spanInsert.sql).toMatch(/^INSERT INTO tool_call_spans \(project_id, span_id, trace_id, parent_span_id, run_id, call_id, tool, attempt, started_at, /);
    expect(spanInsert.sql).not.toMatch(/\bpk\b/);
    expect(spanInsert.sql).toMatch(/message, received_at, derived, args_hash, after_error, started_sub_ns, emitter_id\) VALUES \((\?, ){25}\?\) ON CONFLICT \(project_id, span_id\) DO NOTHING$/);
  });

  it("on PostgreSQL, take one array per column (a scalar per context field) and conflict on the partitioned tables' keys", () => {
    expect(spanInsert.pgSql).toMatch(/^INSERT INTO tool_call_spans \(pk, project_id, span_id, .*, received_at, derived, args_hash, after_error, started_sub_ns, emitter_id\) SELECT pk, project_id, .* FROM \(SELECT nextval\('tool_call_spans_pk_seq'\) AS pk, \$1::text AS project_id, span_id, .* FROM unnest\(\$2::text\[\], \$3::text\[\], /);
    expect(spanInsert.pgSql).toContain(", $21::bigint AS received_at, derived, ");
    expect(spanInsert.pgSql).toContain("$26::bigint[]) WITH ORDINALITY AS u(span_id, ");
    expect(spanInsert.pgSql).toContain(", message, derived, args_hash, after_error, started_sub_ns, emitter_id, ord)");
    expect(spanInsert.pgSql).toMatch(/ORDER BY ord\) AS batch ORDER BY span_id ON CONFLICT \(project_id, span_id, started_at\) DO NOTHING RETURNING tool_call_spans\.span_id$/);
    expect(toolErrorInsert.pgSql).toMatch(/ON CONFLICT \(project_id, event_id, occurred_at\) DO NOTHING RETURNING tool_errors\.event_id$/);
    const columns = spanInsert.columns(context, [row, { ...row, spanId: "s2", retryable: null, permitted: true }]);
    expect(columns).toHaveLength(26);
    expect(columns.slice(0, 3)).toEqual(["p", ["s", "s2"], []]); // the context's project; trace ids null on every row
    expect(columns[13]).toEqual([1, null]); // retryable as 0/1
    expect(columns[17]).toEqual([0, 1]); // permitted
    expect(columns[20]).toBe(3); // received_at
  });

  it("type-check the rows against the table", () => {
    // @ts-expect-error every column must be given (null when unknown)
    spanInsert.bind(context, { ...row, message: undefined });
    // @ts-expect-error the batch's fields come from the context
    spanInsert.bind({ projectId: "p" }, row);
    // @ts-expect-error every column must be given, in the multi-row form too
    spanInsert.columns(context, [{ ...row, message: undefined }]);
    expect(true).toBe(true);
  });
});

describe.each(DIALECTS)("raw inserts on the real migrations (%s)", (dialect) => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore(dialect);
  });
  afterEach(async () => {
    await store.close();
  });

  it("bind by field name, booleans as 0/1, and store the row", async () => {
    const insert = rowInsert(projects, ["createdAt"], { sqlite: "ON CONFLICT DO NOTHING", postgres: "ON CONFLICT DO NOTHING" }, "id");
    if (dialect === "sqlite") {
      await store.run(insert.sql, insert.bind({ createdAt: 5 }, { id: "p", name: "P", archivedAt: null }));
      expect(await store.run(spanInsert.sql, spanInsert.bind(context, row))).toBe(1);
      expect(await store.run(spanInsert.sql, spanInsert.bind(context, row))).toBe(0);
    } else {
      expect(await store.all(insert.pgSql, insert.columns({ createdAt: 5 }, [{ id: "p", name: "P", archivedAt: null }]))).toEqual([{ id: "p" }]);
      // The rows the statement wrote come back; a conflicting one does not.
      expect(await store.all(spanInsert.pgSql, spanInsert.columns(context, [row]))).toEqual([{ span_id: "s" }]);
      expect(await store.all(spanInsert.pgSql, spanInsert.columns(context, [{ ...row, spanId: "s3" }, row, { ...row, spanId: "s2", startedAt: 5 }]))).toEqual([{ span_id: "s2" }, { span_id: "s3" }]);
      // pks follow the array order (as SQLite's rowids follow insert order); rows are written in id order.
      expect(await store.all("SELECT span_id FROM tool_call_spans ORDER BY pk")).toEqual([{ span_id: "s" }, { span_id: "s3" }, { span_id: "s2" }]);
      // Columns sent as an empty array (null on every row) are stored null on every row; a column null
      // on some rows only keeps its values; the context's values are on every row.
      const mixed = [{ ...row, spanId: "m1", traceId: "t1" }, { ...row, spanId: "m2" }, { ...row, spanId: "m3", message: "x" }];
      expect(await store.all(spanInsert.pgSql, spanInsert.columns({ projectId: "p", receivedAt: 9 }, mixed))).toHaveLength(3);
      expect(await store.all("SELECT span_id, project_id, received_at, trace_id, message, after_error FROM tool_call_spans WHERE span_id LIKE 'm%' ORDER BY span_id")).toEqual([
        { span_id: "m1", project_id: "p", received_at: 9, trace_id: "t1", message: null, after_error: null },
        { span_id: "m2", project_id: "p", received_at: 9, trace_id: null, message: null, after_error: null },
        { span_id: "m3", project_id: "p", received_at: 9, trace_id: null, message: "x", after_error: null },
      ]);
    }
    expect(await store.all("SELECT id, name, created_at FROM projects")).toEqual([{ id: "p", name: "P", created_at: 5 }]);
    expect(await store.get("SELECT retryable, permitted, abandoned FROM tool_call_spans WHERE span_id = 's'")).toEqual({ retryable: 1, permitted: 0, abandoned: null });
  });
});
