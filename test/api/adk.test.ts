import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
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
    const row = server.store.sqlite.prepare("SELECT outcome, code, source FROM tool_call_spans WHERE run_id = 'r-api'").get();
    expect(row).toEqual({ outcome: "declined", code: "booking_not_cancellable", source: "adk_run_event" });
  });

  it("published-events and spans: 200 and stored with their source", async () => {
    const pub = await post("published-events", { events: [{ event_id: "1KDVDNAW4J72E0YJV7MQRWTGM", type: "tool_call_completed", occurred_at: at, tenant: "acme", run_id: "r-pub", attributes: { tool: "book", tool_call_id: "c1", state: "failed", error_code: "ToolFailure" } }] });
    expect([pub.status, await pub.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    const spans = await post("spans", { run_id: "r-span", spans: [{ id: "sp-1", at, tool: "book", outcome: "error", failure: "ToolFailure", code: "upstream_broken" }] });
    expect([spans.status, await spans.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    const sources = server.store.sqlite.prepare("SELECT run_id, source, outcome, code FROM tool_call_spans WHERE run_id IN ('r-pub','r-span') ORDER BY run_id").all();
    expect(sources).toEqual([
      { run_id: "r-pub", source: "adk_published", outcome: "failed", code: null },
      { run_id: "r-span", source: "adk_span", outcome: "failed", code: "upstream_broken" },
    ]);
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
    const res = await fetch(`${server.url}/api/v1/conformance?project=default`);
    expect(res.status).toBe(200);
    const g = (missing: number, of: number) => ({ missing, of, share: of === 0 ? null : missing / of });
    expect(await res.json()).toEqual({
      project: "default",
      sources: [
        { source: "adk_published", spans: 1, outcome: g(0, 1), code: g(1, 1), attempt: g(1, 1), release: g(1, 1) },
        { source: "adk_run_event", spans: 2, outcome: g(0, 2), code: g(0, 1), attempt: g(2, 2), release: g(2, 2) },
        { source: "adk_span", spans: 1, outcome: g(0, 1), code: g(0, 1), attempt: g(1, 1), release: g(1, 1) },
      ],
    });
    const other = await fetch(`${server.url}/api/v1/conformance?project=nope`);
    expect(await other.json()).toEqual({ project: "nope", sources: [] });
    const page = await (await fetch(`${server.url}/conformance`)).text();
    expect(page).toContain("Reference kit · run events");
    expect(page).toContain("No code (non-ok)");
  });
});
