// Issue 32, items 6–8 over HTTP on a server of its own (accounts end setup mode): the full-text
// search endpoint and the Runs filter, trace ids from OTLP and the project's link template, saved
// views per user and shared. Exact answers; on PostgreSQL too in the api-pg project.
import { beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/db/keys";
import { auditRows, json, useTeam, type CallerName } from "./team-fixture";

const team = useTeam();
const T = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

const get = async (path: string, who: CallerName = "viewer") => {
  const res = await fetch(`${team().server.url}${path}`, { headers: team().headersOf(who) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const send = async (method: string, path: string, who: CallerName, body?: unknown) => {
  const res = await fetch(`${team().server.url}${path}`, json(method, team().headersOf(who), body));
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as Record<string, unknown>) };
};

beforeAll(async () => {
  const { server, project } = team();
  const { key } = await createKey(server.store, project, "search ingest");
  const span = (id: string, run: string, call: string, attempt: number, at: number, message: string | null) => ({
    type: "tool_call_span", id, run_id: run, call_id: call, tool: "lookup", attempt, started_at: at, ended_at: at + 10,
    outcome: message ? "failed" : "ok", ...(message ? { code: "upstream_unavailable", error_class: "ToolFailure", retryable: true, decision: attempt < 2 ? "retried" : "surfaced", message } : {}),
  });
  const records = [
    span("s1", "run-a", "c1", 1, T, "HTTP 503 from api.example.com (upstream unavailable)"),
    span("s2", "run-a", "c1", 2, T + 100, "HTTP 503 from api.example.com (upstream unavailable)"),
    { type: "tool_error", id: "e1", run_id: "run-a", call_id: "c1", tool: "lookup", code: "upstream_unavailable", error_class: "ToolFailure", retryable: true, attempts: 2, decision: "surfaced", told: 'The order service said "try later"; ask the user to wait.', occurred_at: T + 120 },
    span("s3", "run-b", "c2", 1, T + 200, "Rate limited: retry in 2 s"),
    span("s4", "run-c", "c3", 1, T + 300, null),
  ];
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ resource: { service: "support-agent", release: "1.0.0" }, records }),
  });
  expect(res.status).toBe(200);
  // An OTLP agent span and its tool span: the run and the attempt carry the trace.
  const s = (k: string, v: string) => ({ key: k, value: { stringValue: v } });
  const otlp = {
    resourceSpans: [{
      resource: { attributes: [s("service.name", "otel-agent")] },
      scopeSpans: [{
        scope: { name: "agent" },
        spans: [
          { traceId: TRACE, spanId: "00f067aa0ba90001", name: "invoke_agent planner", kind: 1, startTimeUnixNano: `${T + 400}000000`, endTimeUnixNano: `${T + 500}000000`, attributes: [s("gen_ai.operation.name", "invoke_agent"), s("gen_ai.agent.name", "planner")] },
          { traceId: TRACE, spanId: "00f067aa0ba90002", parentSpanId: "00f067aa0ba90001", name: "execute_tool book", kind: 1, startTimeUnixNano: `${T + 410}000000`, endTimeUnixNano: `${T + 420}000000`, attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "book"), s("gen_ai.tool.call.id", "call-otel")] },
        ],
      }],
    }],
  };
  const traced = await fetch(`${server.url}/v1/traces`, { method: "POST", headers: { "content-type": "application/json", "x-faultline-key": key }, body: JSON.stringify(otlp) });
  expect(traced.status).toBe(200);
});

describe("GET /api/v1/search/text", () => {
  const hits = async (q: string) => {
    const { status, body } = await get(`/api/v1/search/text?project=acme&q=${encodeURIComponent(q)}`);
    expect(status).toBe(200);
    return (body.hits as { field: string; runId: string; spanId: string | null; matches: number; snippet: { segments: { text: string; hit: boolean }[] } }[]).map(
      (h) => `${h.field} ${h.runId} ${h.spanId ?? "-"} x${h.matches}: ${h.snippet.segments.map((g) => (g.hit ? `[${g.text}]` : g.text)).join("")}`,
    );
  };

  it("answers calls with marked segments, newest first, one per call and field", async () => {
    expect(await hits("unavailable")).toEqual(["message run-a s2 x2: HTTP 503 from api.example.com (upstream [unavailable])"]);
    expect(await hits("503 upstream")).toEqual(["message run-a s2 x2: HTTP [503] from api.example.com ([upstream] unavailable)"]);
    expect(await hits('"try later"')).toEqual(['told run-a - x1: The order service said "[try later]"; ask the user to wait.']);
    expect(await hits("retr*")).toEqual(["message run-b s3 x1: Rate limited: [retry] in 2 s"]);
    const { body } = await get(`/api/v1/search/text?project=acme&q=lookup`);
    expect(body).toEqual({ project: "acme", q: "lookup", hits: [], runs: 0, truncated: false });
  });

  it("takes quotes, parentheses and stars as text; a query without a word is a 400 in the envelope", async () => {
    expect(await hits('(upstream) "unavailable')).toEqual(["message run-a s2 x2: HTTP 503 from api.example.com ([upstream] [unavailable])"]);
    expect(await hits("OR NOT *")).toEqual([]);
    const bad = await get(`/api/v1/search/text?project=acme&q=${encodeURIComponent('"()" *')}`);
    expect(bad).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: "invalid query: q: holds no letter or digit to search for", issues: [{ path: "q", message: "holds no letter or digit to search for" }] } },
    });
  });

  it("filters the Runs list by the same query", async () => {
    const runs = async (text: string) => ((await get(`/api/v1/runs?project=acme&text=${encodeURIComponent(text)}`)).body.runs as { runId: string }[]).map((r) => r.runId);
    expect(await runs("unavailable")).toEqual(["run-a"]);
    expect(await runs("wait")).toEqual(["run-a"]);
    expect(await runs("limited OR")).toEqual([]);
    expect(await runs("limited")).toEqual(["run-b"]);
  });
});

describe("trace ids and the project's link template", () => {
  const TEMPLATE = "https://jaeger.example.com/trace/{trace_id}?uiFind={span_id}";

  it("stores the run's and the attempt's trace from OTLP", async () => {
    const { body } = await get(`/api/v1/runs/${TRACE}?project=acme`);
    const run = body.run as { traceId: string; spanId: string };
    expect([run.traceId, run.spanId]).toEqual([TRACE, "00f067aa0ba90001"]);
    const calls = body.calls as { attempts: (string | number | null)[][] }[];
    const strings = body.strings as string[];
    expect(calls.map((c) => c.attempts.map((a) => [a[0], strings[a[12] as number]]))).toEqual([[["00f067aa0ba90002", TRACE]]]);
  });

  it("is set by admins only, validated, audited, and read by every member", async () => {
    expect((await get("/api/v1/projects/acme/trace-link")).body).toEqual({ project: "acme", link: null });
    expect((await send("PUT", "/api/v1/projects/acme/trace-link", "member", { preset: "jaeger", baseUrl: "https://jaeger.example.com" })).status).toBe(403);
    const bad = await send("PUT", "/api/v1/projects/acme/trace-link", "admin", { preset: "custom", name: "X", template: "https://x.example/{traceid}" });
    expect(bad).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: "invalid body: template: {traceid} is not a placeholder: use {trace_id} and {span_id}", issues: [{ path: "template", message: "{traceid} is not a placeholder: use {trace_id} and {span_id}" }] } },
    });
    const set = await send("PUT", "/api/v1/projects/acme/trace-link", "admin", { preset: "jaeger", baseUrl: "https://jaeger.example.com/" });
    expect(set.status).toBe(200);
    const link = { settings: { preset: "jaeger", baseUrl: "https://jaeger.example.com" }, template: TEMPLATE, toolName: "Jaeger", updatedAt: expect.any(Number) };
    expect(set.body).toEqual({ project: "acme", link });
    expect((await get("/api/v1/projects/acme/trace-link", "viewer")).body).toEqual({ project: "acme", link });
    // The same settings again change nothing and record nothing.
    expect((await send("PUT", "/api/v1/projects/acme/trace-link", "owner", { preset: "jaeger", baseUrl: "https://jaeger.example.com" })).status).toBe(200);
    expect((await send("DELETE", "/api/v1/projects/acme/trace-link", "owner")).body).toEqual({ project: "acme", link: null });
    expect((await auditRows(team(), "acme")).filter((r) => r.action.startsWith("trace_link.")).map((r) => [r.action, r.actorLabel, r.target, r.detail])).toEqual([
      ["trace_link.set", "admin@acme.test", "Jaeger", { from: null, to: TEMPLATE }],
      ["trace_link.removed", "owner@acme.test", "Jaeger", { from: TEMPLATE }],
    ]);
  });
});

describe("saved views", () => {
  const list = async (who: CallerName) =>
    ((await get("/api/v1/saved-views?project=acme&page=%2Fruns", who)).body.views as { name: string; params: string; shared: boolean; mine: boolean; ownerName: string }[]).map(
      (v) => `${v.name} ${v.params} ${v.shared ? "shared" : "private"} ${v.mine ? "mine" : `by ${v.ownerName}`}`,
    );

  it("keeps a view to its owner until shared, then shows it to the project's members only", async () => {
    const created = await send("POST", "/api/v1/saved-views", "member", { project: "acme", page: "/runs", name: "Failed lookups", params: "?tool=lookup&state=failed&project=acme&code=" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ project: "acme", page: "/runs", name: "Failed lookups", params: "state=failed&tool=lookup", shared: false, mine: true, ownerName: "member" });
    const id = created.body!.id as number;
    expect(await list("member")).toEqual(["Failed lookups state=failed&tool=lookup private mine"]);
    expect(await list("viewer")).toEqual([]);
    // Another member's private view does not exist for them.
    expect((await send("PATCH", `/api/v1/saved-views/${id}`, "viewer", { shared: true })).status).toBe(404);
    expect((await send("POST", "/api/v1/saved-views", "member", { project: "acme", page: "/runs", name: "Failed lookups", params: "" })).body).toEqual({
      error: { code: "conflict", message: "you already have a view named “Failed lookups” on this page" },
    });
    expect((await send("PATCH", `/api/v1/saved-views/${id}`, "member", { shared: true })).body).toMatchObject({ shared: true });
    expect(await list("viewer")).toEqual(["Failed lookups state=failed&tool=lookup shared by member"]);
    expect((await get("/api/v1/saved-views?project=acme&page=%2Fruns", "outsider")).status).toBe(404);
    // A shared view: a viewer may not change it, an admin may.
    expect((await send("PATCH", `/api/v1/saved-views/${id}`, "viewer", { name: "Mine now" })).body).toEqual({
      error: { code: "forbidden", message: "only member, who saved it, or a project admin may change a shared view" },
    });
    expect((await send("PATCH", `/api/v1/saved-views/${id}`, "admin", { name: "Lookups that failed" })).body).toMatchObject({ name: "Lookups that failed", mine: false });
    expect((await send("DELETE", `/api/v1/saved-views/${id}`, "member")).status).toBe(204);
    expect(await list("member")).toEqual([]);
    expect((await auditRows(team(), "acme")).filter((r) => r.action.startsWith("view.")).map((r) => [r.action, r.actorLabel, r.target])).toEqual([
      ["view.saved", "member@acme.test", "Failed lookups"],
      ["view.changed", "member@acme.test", "Failed lookups"],
      ["view.changed", "admin@acme.test", "Lookups that failed"],
      ["view.deleted", "member@acme.test", "Lookups that failed"],
    ]);
  });
});
