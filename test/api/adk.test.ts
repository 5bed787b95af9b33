import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    const row = await server.store.get("SELECT outcome, code, source FROM tool_call_spans WHERE project_id = ? AND run_id = 'r-api'", [server.project]);
    expect(row).toEqual({ outcome: "declined", code: "booking_not_cancellable", source: "adk_run_event" });
  });

  it("published-events and spans: 200 and stored with their source", async () => {
    const pub = await post("published-events", { events: [{ event_id: "1KDVDNAW4J72E0YJV7MQRWTGM", type: "tool_call_completed", occurred_at: at, tenant: "acme", run_id: "r-pub", attributes: { tool: "book", tool_call_id: "c1", state: "failed", error_code: "ToolFailure" } }] });
    expect([pub.status, await pub.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    const spans = await post("spans", { run_id: "r-span", spans: [{ id: "sp-1", at, tool: "book", outcome: "error", failure: "ToolFailure", code: "upstream_broken" }] });
    expect([spans.status, await spans.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    const sources = await server.store.all("SELECT run_id, source, outcome, code FROM tool_call_spans WHERE project_id = ? AND run_id IN ('r-pub','r-span') ORDER BY run_id", [server.project]);
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
    const counters = { toolCalls: 0, attempts: 0, retries: 0, failedAttempts: 0, errors: 0, declined: 0, refused: 0 };

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
    expect(await res.json()).toEqual({
      project: server.project,
      sources: [
        { source: "adk_published", spans: 1, outcome: g(0, 1), code: g(1, 1), attempt: g(1, 1), release: g(1, 1) },
        { source: "adk_run_event", spans: 2, outcome: g(0, 2), code: g(0, 1), attempt: g(2, 2), release: g(2, 2) },
        { source: "adk_span", spans: 1, outcome: g(0, 1), code: g(0, 1), attempt: g(1, 1), release: g(1, 1) },
      ],
    });
    const other = await fetch(`${server.url}/api/v1/conformance?project=nope`);
    expect(await other.json()).toEqual({ project: "nope", sources: [] });
    const page = await (await fetch(server.at("/conformance"))).text();
    expect(page).toContain("Reference kit · run events");
    expect(page).toContain("No code (non-ok)");
  });
});
