import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject } from "@/db/keys";
import { openProject, type ProjectServer } from "../helpers/project";
import { H, XSS_TOLD, seedRuns } from "./runs-fixture";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject({ seed: seedRuns });
  // Another project, with no runs: nothing of this file's project may show through it.
  await createProject(server.store, `${server.project}-other`, "Other");
});
afterAll(async () => {
  await server?.stop();
});

const get = async (path: string) => {
  const res = await fetch(server.at(path));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const ids = async (query: string) => {
  const { status, body } = await get(`/api/v1/runs${query}`);
  expect(status).toBe(200);
  return (body.runs as { runId: string }[]).map((r) => r.runId);
};

const everyDecision = {
  runId: "run-every-decision",
  hasRunRecord: true,
  agent: "support-agent",
  release: "2026.11.3",
  state: "failed",
  startedAt: H,
  endedAt: H + 20_000,
  durationMs: 20_000,
  toolCalls: 10,
  attempts: 18,
  retries: 7,
  failedAttempts: 15,
  errors: 7,
  declined: 1,
  refused: 1,
  unansweredToolUses: null,
};
// No run record: agent and release are those its spans name (service and release of their batch).
const orphan = {
  runId: "run-orphan",
  hasRunRecord: false,
  agent: "support-agent",
  release: "2026.11.3",
  state: null,
  startedAt: H + 60_000,
  endedAt: H + 61_000,
  durationMs: 1_000,
  toolCalls: 1,
  attempts: 2,
  retries: 1,
  failedAttempts: 1,
  errors: 0,
  declined: 0,
  refused: 0,
  unansweredToolUses: null,
};
const clean = {
  runId: "run-clean",
  hasRunRecord: true,
  agent: "billing-agent",
  release: "2026.11.4",
  state: "completed",
  startedAt: H + 120_000,
  endedAt: H + 121_000,
  durationMs: 1_000,
  toolCalls: 1,
  attempts: 1,
  retries: 0,
  failedAttempts: 0,
  errors: 0,
  declined: 0,
  refused: 0,
  unansweredToolUses: null,
};

describe("GET /api/v1/runs", () => {
  it("lists every run newest first, a run without its record included", async () => {
    expect(await get("/api/v1/runs")).toEqual({ status: 200, body: { runs: [clean, orphan, everyDecision], nextCursor: null, matched: 3, matchedCapped: false } });
  });

  it("filters by agent, release, environment, state and the missing run record", async () => {
    // A filter matches what the list shows, the spans' agent of a run without its record included.
    expect(await ids("?agent=support-agent")).toEqual(["run-orphan", "run-every-decision"]);
    expect(await ids("?agent=support-agent&state=missing")).toEqual(["run-orphan"]);
    expect(await ids("?release=2026.11.3")).toEqual(["run-orphan", "run-every-decision"]);
    expect(await ids("?release=2026.11.4")).toEqual(["run-clean"]);
    expect(await ids("?environment=staging")).toEqual(["run-clean"]);
    expect(await ids("?environment=prod")).toEqual(["run-every-decision"]);
    expect(await ids("?state=failed")).toEqual(["run-every-decision"]);
    expect(await ids("?state=missing")).toEqual(["run-orphan"]);
    expect(await ids("?agent=&release=")).toEqual(["run-clean", "run-orphan", "run-every-decision"]);
  });

  it("filters by time range, tool errors, tool and code (spans and final errors)", async () => {
    expect(await ids(`?from=${H + 60_000}`)).toEqual(["run-clean", "run-orphan"]);
    expect(await ids(`?to=${H + 60_000}`)).toEqual(["run-every-decision"]);
    expect(await ids("?hasErrors=1")).toEqual(["run-orphan", "run-every-decision"]);
    expect(await ids("?hasErrors=0")).toEqual(["run-clean"]);
    expect(await ids("?tool=search_flights")).toEqual(["run-orphan", "run-every-decision"]);
    expect(await ids(`?tool=search_flights&from=${H + 1}`)).toEqual(["run-orphan"]);
    expect(await ids("?code=card_declined")).toEqual(["run-every-decision"]);
    expect(await ids("?code=upstream_unavailable&tool=search_flights")).toEqual(["run-orphan", "run-every-decision"]);
    expect(await ids("?code=upstream_unavailable&tool=charge_card")).toEqual([]);
    expect(await ids("?code=no_such_code")).toEqual([]);
  });

  it("pages with a keyset cursor", async () => {
    const first = await get("/api/v1/runs?limit=2");
    // Every page counts the runs its filters match, not the runs after its cursor.
    expect(first.body).toEqual({ runs: [clean, orphan], nextCursor: `${H + 60_000}:run-orphan`, matched: 3, matchedCapped: false });
    const second = await get(`/api/v1/runs?limit=2&cursor=${encodeURIComponent(String(first.body.nextCursor))}`);
    expect(second.body).toEqual({ runs: [everyDecision], nextCursor: null, matched: 3, matchedCapped: false });
    const filtered = await get("/api/v1/runs?limit=1&hasErrors=1");
    expect([filtered.body.matched, filtered.body.matchedCapped]).toEqual([2, false]);
    expect((await get("/api/v1/runs?code=no_such_code")).body).toEqual({ runs: [], nextCursor: null, matched: 0, matchedCapped: false });
  });

  it("answers 400 with the error envelope for a bad query", async () => {
    expect(await get("/api/v1/runs?limit=500")).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: "invalid query: limit: Too big: expected number to be <=200", issues: [{ path: "limit", message: "Too big: expected number to be <=200" }] } },
    });
    const bad = await get("/api/v1/runs?state=bogus&cursor=x");
    expect(bad.status).toBe(400);
    expect((bad.body.error as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(["state", "cursor"]);
  });

  it("reads another project's runs only with ?project=, and no project that does not exist", async () => {
    expect(await get(`/api/v1/runs?project=${server.project}-other`)).toEqual({ status: 200, body: { runs: [], nextCursor: null, matched: 0, matchedCapped: false } });
    expect(await get("/api/v1/runs?project=no-such-project")).toEqual({ status: 404, body: { error: { code: "not_found", message: "project no-such-project not found" } } });
  });
});

describe("GET /api/v1/runs/:runId", () => {
  it("returns a run without its record exactly: attempts as tuples, times after t0, strings by index", async () => {
    expect(await get("/api/v1/runs/run-orphan")).toEqual({
      status: 200,
      body: {
        runId: "run-orphan",
        t0: H + 60_000,
        // Trace ids join the dictionary last.
        strings: ["failed", "upstream_unavailable", "ToolFailure", "retried", "ok", "trace-1"],
        run: null,
        calls: [
          {
            callId: "o1",
            tool: "search_flights",
            attempts: [
              ["o1-a1", 1, 0, 400, 0, 1, 2, true, null, 500, 3, null, 5],
              ["o1-a2", 2, 900, 1000, 4, null, null, null, null, null, null, null, 5],
            ],
            error: null,
          },
        ],
        toldSteps: [],
        codedBy: {},
        // It fits one page.
        page: { next: null, totalAttempts: 2, totalCalls: 1 },
      },
    });
  });

  it("returns the whole run: record, calls in start order, final errors with the told text verbatim", async () => {
    const { status, body } = await get("/api/v1/runs/run-every-decision");
    expect(status).toBe(200);
    expect(body.run).toEqual({
      agent: "support-agent",
      release: "2026.11.3",
      service: "support-agent",
      environment: "prod",
      sdkName: "faultline-runtime",
      sdkVersion: "0.1.0",
      startedAt: H,
      endedAt: H + 20_000,
      state: "failed",
      deadlineAt: H + 22_000,
      maxToolAttempts: 4,
      error: "charge_card failed the run",
      unansweredToolUses: null,
      // Native run records carry no trace.
      traceId: null,
      spanId: null,
    });
    // What came of each error the model was told: retried by the model without an arguments hash
    // (unknown), or no later call of its tool before the run failed.
    const step = (callId: string, tool: string, code: string, s: string, nextCallId: string | null = null, nextTool: string | null = null) =>
      ({ callId, tool, code, step: s, nextCallId, nextTool, callsUntilRecovery: null });
    expect(body.toldSteps).toEqual([
      step("c3", "cancel_booking", "booking_not_cancellable", "run_failed"),
      step("c4", "lookup_customer", "not_permitted", "unknown", "c10", "lookup_customer"),
      step("c6", "fetch_weather", "rate_limited", "unknown", "c7", "fetch_weather"),
      step("c7", "fetch_weather", "upstream_timeout", "run_failed"),
      step("c8", "search_flights", "upstream_unavailable", "run_failed"),
    ]);
    const calls = body.calls as { callId: string; tool: string; attempts: unknown[][]; error: { decision: string; told: string } | null }[];
    expect(calls.map((c) => [c.callId, c.tool, c.attempts.map((a) => a[1]), c.error?.decision ?? null])).toEqual([
      ["c1", "search_flights", [1, 2], null],
      ["c2", "search_flights", [1], null],
      ["c3", "cancel_booking", [1], "delivered"],
      ["c4", "lookup_customer", [1], "surfaced"],
      ["c5", "charge_card", [1], "failed_run"],
      ["c6", "fetch_weather", [1], "failed_closed"],
      ["c7", "fetch_weather", [1, 2, 3], "exhausted"],
      ["c8", "search_flights", [1, 2, 3, 4], "budget_capped"],
      ["c9", "send_email", [1], "cancelled"],
      ["c10", "lookup_customer", [1, 3, null], null],
    ]);
    expect(calls[3]?.error).toEqual({
      code: "not_permitted",
      errorClass: "ToolNotPermittedError",
      retryable: false,
      attempts: 1,
      decision: "surfaced",
      told: XSS_TOLD,
      occurredAt: H + 2210,
      source: "native",
      derived: [],
    });
    // Clocks that disagree are returned as stored, not tidied.
    expect(body.t0).toBe(H);
    const strings = body.strings as string[];
    const text = (i: unknown) => (i === null ? null : strings[i as number]);
    const a = calls[9]!.attempts[1]!;
    expect([a[0], a[1], a[2], a[3], text(a[4]), text(a[5]), text(a[6]), a[7], a[8], a[9], text(a[10]), a[11], text(a[12])]).toEqual(
      ["c10-a3", 3, 9300, 9200, "failed", "upstream_unavailable", "ToolFailure", true, null, 100, "retried", null, "trace-1"],
    );
  });

  it("opens the run page and API for a run id with spaces, colons and slashes", async () => {
    const odd = "run a:b/c%";
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ records: [{ type: "tool_call_span", id: "odd-1", run_id: odd, call_id: "c", tool: "t", attempt: 1, started_at: Date.now() - 1000, ended_at: Date.now() - 900, outcome: "ok" }] }),
    });
    expect(res.status).toBe(200);
    const api = await get(`/api/v1/runs/${encodeURIComponent(odd)}`);
    expect(api.status).toBe(200);
    expect(api.body.runId).toBe(odd);
    const page = await fetch(server.at(`/runs/${encodeURIComponent(odd)}`));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("run a:b/c%");
  });

  it("answers 404 for an unknown run and for another project's run", async () => {
    const notFound = { status: 404, body: { error: { code: "not_found", message: "no run with this id in this project" } } };
    expect(await get("/api/v1/runs/nope")).toEqual(notFound);
    expect(await get(`/api/v1/runs/run-orphan?project=${server.project}-other`)).toEqual(notFound);
  });
});
