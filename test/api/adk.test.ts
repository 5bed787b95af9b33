import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject } from "@/db/keys";
import { SPANS } from "../helpers/spans-read";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v1/ingest/adk/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const at = Math.floor(Date.now() / 1000) - 60;

describe("reference-kit endpoints against next start", () => {
  it("run-events: 200, then 207 with per-event rejections", async () => {
    const ok = await post("run-events", { run_id: "r-api", agent: "planner", state: "completed", events: [
      { kind: "tool_refused", name: "cancel", detail: "booking_not_cancellable: no", at, usage: null },
    ] });
    expect([ok.status, await ok.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    const partial = await post("run-events", { run_id: "r-api-2", events: [{ kind: "tool_result", name: "x", at }, { kind: "" }] });
    expect(partial.status).toBe(207);
    expect(await partial.json()).toMatchObject({ accepted: 1, rejected: [{ index: 1, code: "invalid_record" }] });
    const row = await server.store.get(`SELECT outcome, code, source FROM ${SPANS} WHERE project_id = ? AND run_id = 'r-api'`, [server.project]);
    expect(row).toEqual({ outcome: "declined", code: "booking_not_cancellable", source: "adk_run_event" });
  });

  it("published-events and spans: 200 and stored with their source", async () => {
    const pub = await post("published-events", { events: [{ event_id: "1KDVDNAW4J72E0YJV7MQRWTGM", type: "tool_call_completed", occurred_at: at, tenant: "acme", run_id: "r-pub", attributes: { tool: "book", tool_call_id: "c1", state: "failed", error_code: "ToolFailure" } }] });
    expect([pub.status, await pub.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    const spans = await post("spans", { run_id: "r-span", spans: [{ id: "sp-1", at, tool: "book", outcome: "error", failure: "ToolFailure", code: "upstream_broken" }] });
    expect([spans.status, await spans.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    const sources = await server.store.all(`SELECT run_id, source, outcome, code FROM ${SPANS} WHERE project_id = ? AND run_id IN ('r-pub','r-span') ORDER BY run_id`, [server.project]);
    expect(sources).toEqual([
      { run_id: "r-pub", source: "adk_published", outcome: "failed", code: null },
      { run_id: "r-span", source: "adk_span", outcome: "failed", code: "upstream_broken" },
    ]);
  });

  it("published-events: a run end stored before its start, merged when the start comes in a later request", async () => {
    const ev = (event_id: string, type: string, run_id: string, occurred_at: number, attributes: Record<string, string> = {}) =>
      ({ event_id, type, schema_version: 1, occurred_at, tenant: "acme", run_id, attributes: { run_id, ...attributes } });
    const run = async (runId: string) =>
      ((await (await fetch(server.at("/api/v1/runs"))).json()) as { runs: Record<string, unknown>[] }).runs.find((r) => r.runId === runId);
    const counters = { toolCalls: 0, attempts: 0, retries: 0, failedAttempts: 0, errors: 0, declined: 0, refused: 0, unansweredToolUses: null };

    const end = await post("published-events", { events: [ev("R-END", "run_completed", "r-late", at + 10)] });
    expect([end.status, await end.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    expect(await run("r-late")).toEqual({
      runId: "r-late", hasRunRecord: true, agent: null, release: null, state: "completed",
      startedAt: null, endedAt: (at + 10) * 1000, durationMs: null, ...counters,
    });
    const start = await post("published-events", { events: [ev("R-START", "run_started", "r-late", at, { agent: "planner", agent_version: "0.4.0" })] });
    expect([start.status, await start.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    expect(await run("r-late")).toEqual({
      runId: "r-late", hasRunRecord: true, agent: "planner", release: "0.4.0", state: "completed",
      startedAt: at * 1000, endedAt: (at + 10) * 1000, durationMs: 10_000, ...counters,
    });
    expect(await server.store.get("SELECT count(*) AS n FROM runs WHERE project_id = ? AND run_id = 'r-late'", [server.project])).toEqual({ n: 1 });

    // The start never comes: listed as a run with its record, agent and start unknown.
    const lone = await post("published-events", { events: [ev("R-LONE", "run_failed", "r-lone", at + 20, { error_code: "deadline" })] });
    expect([lone.status, await lone.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    expect(await run("r-lone")).toEqual({
      runId: "r-lone", hasRunRecord: true, agent: null, release: null, state: "failed",
      startedAt: null, endedAt: (at + 20) * 1000, durationMs: null, ...counters,
    });
    const timeline = (await (await fetch(server.at("/api/v1/runs/r-lone"))).json()) as { run: Record<string, unknown> };
    expect([timeline.run.agent, timeline.run.startedAt, timeline.run.endedAt, timeline.run.error]).toEqual([null, null, (at + 20) * 1000, "deadline"]);

    // The runs page (server-rendered first paint) says "unknown" for agent, start and duration, not "run record missing".
    const html = await (await fetch(server.at("/runs"))).text();
    const row = html.match(/<tr[^>]*data-run-id="r-lone"[^>]*>(.*?)<\/tr>/)?.[1] ?? "";
    const cells = [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, "").replace(/<!-- -->/g, ""));
    expect(cells.slice(0, 6)).toEqual(["r-lone", "unknown", "unknown", "failed", "unknown", "unknown"]);
  });

  it("answers 400, 401, 413 and 415 with the error envelope", async () => {
    const bad = await post("spans", { spans: "no" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "bad_request", issues: [{ path: "spans" }] } });
    expect((await post("run-events", "{oops")).status).toBe(400);
    const anon = await fetch(`${server.url}/api/v1/ingest/adk/spans`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect([anon.status, ((await anon.json()) as { error: { code: string } }).error.code]).toEqual([401, "unauthorized"]);
    const key = await post("published-events", { events: [] }, { authorization: "", "x-faultline-key": server.key });
    expect(key.status).toBe(400);
    const big = await post("spans", JSON.stringify({ run_id: "r", spans: [{ id: "x".repeat(6 * 1024 * 1024) }] }));
    expect(big.status).toBe(413);
    const type = await post("spans", "x", { "content-type": "text/plain" });
    expect([type.status, ((await type.json()) as { error: { code: string } }).error.code]).toEqual([415, "unsupported_media_type"]);
  });

  it("reports per format what the stored tool spans lack (API and page)", async () => {
    const res = await fetch(server.at("/api/v1/conformance"));
    expect(res.status).toBe(200);
    const g = (missing: number, of: number) => ({ missing, of, share: of === 0 ? null : missing / of });
    const { emitters, codeSources, ...perFormat } = (await res.json()) as {
      emitters: { service: string | null; convention: string; spans: number; drops: unknown[] }[];
      codeSources: unknown[];
    };
    // Where the failures' codes came from: the kit's own codes, and a published failure none gave one.
    const sourced = (source: string, service: string | null, emitter: number, unclassified: number) => ({ source, service, failures: 1, emitter, rules: 0, builtin: 0, unclassified });
    expect(codeSources).toEqual([sourced("adk_published", null, 0, 1), sourced("adk_run_event", "planner", 1, 0), sourced("adk_span", null, 1, 0)]);
    // Per emitter: the kit's inputs by the service their records name (none for most of them).
    expect(emitters.map((e) => [e.service, e.convention, e.spans, e.drops])).toEqual([
      [null, "adk_published", 1, []],
      [null, "adk_run_event", 1, []],
      [null, "adk_span", 1, []],
      ["planner", "adk_run_event", 1, []],
    ]);
    expect(perFormat).toEqual({
      project: server.project,
      sources: [
        { source: "adk_published", spans: 1, outcome: g(0, 1), code: g(1, 1), attempt: g(1, 1), release: g(1, 1) },
        // A run event's attempt number is derived from the events of its call.
        { source: "adk_run_event", spans: 2, outcome: g(0, 2), code: g(0, 1), attempt: g(0, 2), release: g(2, 2) },
        { source: "adk_span", spans: 1, outcome: g(0, 1), code: g(0, 1), attempt: g(1, 1), release: g(1, 1) },
      ],
    });
    const empty = `${server.project}-empty`;
    await createProject(server.store, empty, "Empty");
    const other = await fetch(`${server.url}/api/v1/conformance?project=${empty}`);
    expect(await other.json()).toEqual({ project: empty, sources: [], emitters: [], codeSources: [] });
    const page = await (await fetch(server.at("/conformance"))).text();
    expect(page).toContain("Reference kit · run events");
    expect(page).toContain("Code unknown (non-ok)");
  });

  const runsList = async (qs = "") => ((await (await fetch(server.at(`/api/v1/runs${qs}`))).json()) as { runs: Record<string, unknown>[] }).runs;
  const counters = (r: Record<string, unknown> | undefined) =>
    r && [r.hasRunRecord, r.agent, r.release, r.state, r.toolCalls, r.attempts, r.retries, r.failedAttempts, r.errors, r.declined, r.refused];

  it("accepts the kit's files as they are: bare JSON lists, batch fields from the query string", async () => {
    const events = [
      { kind: "tool_call", name: "book", detail: null, at, usage: null },
      { kind: "attempt_failed", name: "book", detail: "attempt 1: book: upstream_unavailable \u2014 connection reset \u2014 retrying in 0.37s", at: at + 0.2, usage: null },
      { kind: "attempt_failed", name: "book", detail: "attempt 2: book: upstream_unavailable \u2014 connection reset \u2014 retrying in 0.81s", at: at + 0.8, usage: null },
      { kind: "tool_error", name: "book", detail: "upstream_unavailable: connection reset after 3 attempts", at: at + 1.7, usage: null },
    ];
    const run = await post("run-events?run_id=r-bare&agent=planner&agent_version=0.4.0&state=completed", events);
    expect([run.status, await run.json()]).toEqual([200, { accepted: 4, duplicates: 0, rejected: [] }]);
    expect(counters((await runsList()).find((r) => r.runId === "r-bare"))).toEqual([true, "planner", "0.4.0", "completed", 1, 3, 2, 3, 1, 0, 0]);
    const timeline = (await (await fetch(server.at("/api/v1/runs/r-bare"))).json()) as { calls: { error: Record<string, unknown> | null }[] };
    expect(timeline.calls.map((c) => c.error && [c.error.code, c.error.errorClass, c.error.retryable, c.error.attempts, c.error.decision, c.error.source, c.error.derived])).toEqual([
      ["upstream_unavailable", "ToolFailure", true, 3, null, "adk_run_event", ["error_class", "retryable"]],
    ]);

    // ToolCallSpan records as the kit's observer writes them: no id, no run, no time.
    const kit = [
      { tool: "book", agent: "planner", permitted: true, outcome: "error", duration_seconds: 0.25, failure: "ToolFailure", code: "upstream_broken", abandoned: false },
      { tool: "cancel", agent: "planner", permitted: true, outcome: "declined", duration_seconds: 0.0, failure: "ToolRefusal", code: "booking_not_cancellable", abandoned: false },
    ];
    const spans = await post("spans?run_id=r-kit&release=0.9.0", kit);
    expect([spans.status, await spans.json()]).toEqual([200, { accepted: 2, duplicates: 0, rejected: [] }]);
    const again = await post("spans?run_id=r-kit&release=0.9.0", kit);
    expect([again.status, await again.json()]).toEqual([200, { accepted: 2, duplicates: 2, rejected: [] }]);
    // A run made only of these records takes its agent and release from them.
    // Records without a call id are each a call of their own.
    expect(counters((await runsList()).find((r) => r.runId === "r-kit"))).toEqual([false, "planner", "0.9.0", null, 2, 2, 0, 2, 0, 1, 0]);
    expect((await runsList("?agent=planner&state=missing")).map((r) => r.runId)).toEqual(["r-kit"]);
    const stored = await server.store.all<{ span_id: string; derived: string; release: string }>(
      `SELECT span_id, derived, release FROM ${SPANS} WHERE project_id = ? AND run_id = 'r-kit' ORDER BY tool`,
      [server.project],
    );
    expect(stored.map((r) => [/^adk-span:[0-9a-f]{32}$/.test(r.span_id), r.derived, r.release])).toEqual([
      [true, "span_id,started_at,ended_at", "0.9.0"],
      // The declined call: a refusal is never retried, so not retryable.
      [true, "span_id,started_at,ended_at,retryable", "0.9.0"],
    ]);

    const pub = await post("published-events", [{ event_id: "1KDVDNAW4J72E0YJV7MQRWTGX", type: "tool_call_completed", occurred_at: at, tenant: "acme", run_id: "r-pub-bare", attributes: { tool: "book", tool_call_id: "c9", state: "ok" } }]);
    expect([pub.status, await pub.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
  });

  it("answers 400 naming the envelope it expected when a body is neither", async () => {
    const error = async (res: Response) => [res.status, ((await res.json()) as { error: unknown }).error];
    expect(await error(await post("run-events", [{ kind: "tool_result", name: "x", at }]))).toEqual([
      400,
      {
        code: "bad_request",
        message: 'a bare list of run events does not say its run_id: add ?run_id=… to the URL, or send {"run_id": "…", "events": [ … ]}',
        issues: [{ path: "run_id", message: "required: in the query string for a bare list, or in the envelope" }],
      },
    ]);
    expect(await error(await post("spans", '"book"'))).toEqual([
      400,
      { code: "bad_request", message: 'expected a JSON list of ToolCallSpan records, or {"run_id": "…", "spans": [ … ]}', issues: [{ path: "", message: "must be a JSON list or object" }] },
    ]);
    const wrong = await error(await post("spans", { records: [] }));
    expect(wrong[0]).toBe(400);
    expect((wrong[1] as { message: string }).message).toMatch(/ \(expected \{"run_id": "…", "spans": \[ … \]\}, or a bare JSON list of ToolCallSpan records\)$/);
  });
});
