import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPANS } from "../helpers/spans-read";
import { openProject, type ProjectServer } from "../helpers/project";

// Issue 25, item 1 and item 7 at ingest: one rule for text on both engines (U+0000 stored as
// U+FFFD, said in the answer), a record the database refuses is rejected alone (207) and the rest
// of its batch stored, `%00` in a read is an unknown value like any other, and a credential closed
// by `]` or `}` is scrubbed at ingest.
let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  if (server?.dialect === "sqlite") await server.store.run("DROP TRIGGER IF EXISTS text_safety_refuse");
  if (server?.dialect === "postgres") {
    await server.store.run("DROP TRIGGER IF EXISTS text_safety_refuse ON tool_call_spans");
    await server.store.run("DROP FUNCTION IF EXISTS text_safety_refuse()");
  }
  await server?.stop();
});

const T = Date.now() - 60_000;
const NUL = "\u0000";
const post = (path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
const span = (id: string, extra: Record<string, unknown> = {}) => ({
  type: "tool_call_span", id, trace_id: "t1", parent_span_id: null, run_id: `run-${id}`, call_id: "c1", tool: "lookup", attempt: 1,
  started_at: T, ended_at: T + 30, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", retryable: true, ...extra,
});
const note = (index: number, id: string) => ({ index, id, message: "U+0000 (NUL) characters were stored as \uFFFD (U+FFFD)" });

describe("U+0000 in free text", () => {
  it("is stored as U+FFFD on both engines, the whole batch kept, and the answer says which records", async () => {
    const records = [
      { type: "run", id: "nul-run", run_id: "nul-run", agent: "a", started_at: T, ended_at: T + 10, state: "failed", error: `run${NUL}failed` },
      span("nul-span", { message: `message${NUL}with${NUL}nul` }),
      { type: "tool_error", id: "nul-err", run_id: "nul-run", call_id: "c1", tool: "lookup", code: "not_found", error_class: "ToolRefusal", retryable: false, attempts: 1, decision: "delivered", told: `told${NUL}text`, occurred_at: T + 5 },
      span("clean-span"),
    ];
    const res = await post("/api/v1/ingest", { records });
    expect([res.status, await res.json()]).toEqual([200, { accepted: 4, duplicates: 0, rejected: [], notes: [note(0, "nul-run"), note(1, "nul-span"), note(2, "nul-err")] }]);
    const p = server.project;
    expect(await server.store.get("SELECT error FROM runs WHERE project_id = ? AND run_id = 'nul-run'", [p])).toEqual({ error: "run\uFFFDfailed" });
    expect(await server.store.get("SELECT message FROM tool_call_spans WHERE project_id = ? AND span_id = 'nul-span'", [p])).toEqual({ message: "message\uFFFDwith\uFFFDnul" });
    expect(await server.store.get("SELECT told FROM tool_errors WHERE project_id = ? AND event_id = 'nul-err'", [p])).toEqual({ told: "told\uFFFDtext" });
    // Sent again, the batch is all duplicates: the replaced text is what identifies nothing.
    const again = await post("/api/v1/ingest", { records });
    expect((await again.json()) as unknown).toMatchObject({ accepted: 4, duplicates: 4, rejected: [] });
  });

  it("in an OTLP status message: stored as U+FFFD, the export answered as a full success", async () => {
    const otlp = {
      resourceSpans: [{
        resource: { attributes: [{ key: "service.name", value: { stringValue: "nul-service" } }] },
        scopeSpans: [{ spans: [{
          traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba90201", name: "execute_tool lookup",
          startTimeUnixNano: `${T}000000`, endTimeUnixNano: `${T + 5}000000`, status: { code: 2, message: `upstream${NUL}down` },
          attributes: [{ key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } }, { key: "gen_ai.tool.name", value: { stringValue: "lookup" } }],
        }] }],
      }],
    };
    const res = await post("/v1/traces", otlp);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { partialSuccess?: { rejectedSpans?: string | number; errorMessage?: string } };
    expect(Number(body.partialSuccess?.rejectedSpans ?? 0)).toBe(0);
    expect(body.partialSuccess?.errorMessage).toBe("1 span(s) stored with changes: U+0000 (NUL) characters were stored as \uFFFD (U+FFFD)");
    const rows = await server.store.all<{ message: string }>(`SELECT message FROM ${SPANS} WHERE project_id = ? AND tool = 'lookup' AND source = 'otlp'`, [server.project]);
    expect(rows).toEqual([{ message: "upstream\uFFFDdown" }]);
  });

  it("in read parameters is an unknown value like any other: the same answer as for a name that does not exist", async () => {
    const reads = [
      (v: string) => `/api/v1/tools/detail?tool=${v}`,
      (v: string) => `/api/v1/codes/detail?code=${v}`,
      (v: string) => `/api/v1/runs?tool=${v}`,
      (v: string) => `/api/v1/runs/${v}`,
      (v: string) => `/api/v1/search?q=${v}`,
      (v: string) => `/api/v1/tools?release=${v}`,
      (v: string) => `/api/v1/told?tool=${v}`,
    ];
    for (const read of reads) {
      const unknown = await fetch(server.at(read("zz")));
      const nul = await fetch(server.at(read("%00")));
      const label = read("%00");
      expect([label, nul.status], label).toEqual([label, unknown.status]);
      expect(nul.status, label).toBeLessThan(500);
    }
  });
});

describe("a record the database refuses", () => {
  it("comes back rejected alone in a 207; the rest of its batch is stored", async () => {
    // A real refusal by each engine: a trigger that refuses one tool's spans.
    if (server.dialect === "sqlite") {
      await server.store.run("CREATE TRIGGER text_safety_refuse BEFORE INSERT ON tool_call_spans WHEN NEW.tool = 'refuse_me' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END");
    } else {
      await server.store.run(
        "CREATE FUNCTION text_safety_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.tool = 'refuse_me' THEN RAISE EXCEPTION 'refused by the test' USING ERRCODE = 'check_violation'; END IF; RETURN NEW; END $$",
      );
      await server.store.run("CREATE TRIGGER text_safety_refuse BEFORE INSERT ON tool_call_spans FOR EACH ROW EXECUTE FUNCTION text_safety_refuse()");
    }
    const records = [span("keep-1"), span("keep-2"), span("refused-1", { tool: "refuse_me" }), span("keep-3"), span("refused-2", { tool: "refuse_me" })];
    const res = await post("/api/v1/ingest", { records });
    const code = server.dialect === "sqlite" ? "SQLITE_CONSTRAINT_TRIGGER" : "23514";
    const refused = (index: number, id: string) => ({ index, id, code: "storage_refused", message: `the database refused to store this record (${code}); the rest of the batch was stored` });
    expect([res.status, await res.json()]).toEqual([207, { accepted: 3, duplicates: 0, rejected: [refused(2, "refused-1"), refused(4, "refused-2")] }]);
    const stored = await server.store.all<{ span_id: string }>("SELECT span_id FROM tool_call_spans WHERE project_id = ? AND span_id IN ('keep-1','keep-2','keep-3','refused-1','refused-2') ORDER BY span_id", [server.project]);
    expect(stored.map((r) => r.span_id)).toEqual(["keep-1", "keep-2", "keep-3"]);
  });
});

describe("scrubbing at ingest", () => {
  it("redacts a bearer token closed by ] or } and keeps the bracket", async () => {
    const res = await post("/api/v1/ingest", { records: [span("scrub-1", { message: "call failed [Bearer AbCdEfGhIjKlMnOp] {auth: Bearer QrStUvWxYzAbCdEf}" })] });
    expect(res.status).toBe(200);
    expect(await server.store.get("SELECT message FROM tool_call_spans WHERE project_id = ? AND span_id = 'scrub-1'", [server.project])).toEqual({
      message: "call failed [Bearer [redacted:bearer]] {auth: Bearer [redacted:bearer]}",
    });
  });
});
