import { describe, expect, it } from "vitest";
import { FORMULA_TOOL, H, HOUR, MARKUP_CODE, MIN, SCRIPT_TOOL, WINDOW, useFixtureServer } from "./read-fixture";

const { server, get } = useFixtureServer();
const none = { count: 0, p50: null, p90: null };

// Hand-computed from read-fixture.ts. Percentiles are the upper bound of the bucket holding the
// nearest-rank sample: cancel_booking asked 2 s and 1 h (p50 2 s, p90 1 h) and waited 30 s once.
const CANCEL = {
  tool: "cancel_booking", attempts: 5, calls: 4, unnumbered: 0, callsNotOk: 3, callNotOkRate: 0.75, failures: 4, failureRate: 0.8, declined: 1, refused: 1, meanAttempts: 1.25,
  maxAttempts: 2, retryShare: 0.25, failedClosed: 1,
  topCodes: [{ code: "upstream_unavailable", failures: 2 }, { code: "booking_not_cancellable", failures: 1 }, { code: "not_permitted", failures: 1 }],
  retryAfter: { count: 2, p50: 2000, p90: 3_600_000 }, backoff: { count: 1, p50: 30_000, p90: 30_000 },
};
const SCRIPT = {
  tool: SCRIPT_TOOL, attempts: 4, calls: 2, unnumbered: 0, callsNotOk: 0, callNotOkRate: 0, failures: 2, failureRate: 0.5, declined: 0, refused: 0, meanAttempts: 2, maxAttempts: 3,
  retryShare: 0.5, failedClosed: 0, topCodes: [{ code: MARKUP_CODE, failures: 2 }],
  retryAfter: { count: 2, p50: 1000, p90: 1000 }, backoff: { count: 2, p50: 1000, p90: 5000 },
};
const LOOKUP = {
  tool: "lookup", attempts: 3, calls: 3, unnumbered: 0, callsNotOk: 1, callNotOkRate: 1 / 3, failures: 1, failureRate: 1 / 3, declined: 0, refused: 0, meanAttempts: 1, maxAttempts: 1,
  retryShare: 0, failedClosed: 0, topCodes: [{ code: "upstream_unavailable", failures: 1 }], retryAfter: none, backoff: none,
};
const FORMULA = {
  tool: FORMULA_TOOL, attempts: 1, calls: 1, unnumbered: 0, callsNotOk: 0, callNotOkRate: 0, failures: 0, failureRate: 0, declined: 0, refused: 0, meanAttempts: 1, maxAttempts: 1,
  retryShare: 0, failedClosed: 0, topCodes: [], retryAfter: none, backoff: none,
};

describe("GET /api/v1/tools", () => {
  it("lists every tool with per-call stats and delay percentiles, most failures first", async () => {
    const { status, body } = await get(`/api/v1/tools?${WINDOW}`);
    expect(status).toBe(200);
    expect(body.tools).toEqual([CANCEL, SCRIPT, LOOKUP, FORMULA]);
    expect(body.delaysIgnoreFilters).toEqual([]);
    expect(body.facets).toEqual({
      codes: [MARKUP_CODE, "booking_not_cancellable", "not_permitted", "upstream_unavailable"],
      errorClasses: ["ToolFailure", "ToolNotPermittedError", "ToolRefusal", "ToolTimedOutError"],
      releases: ["r1", "r2"],
      services: ["svc-a", "svc-b"],
      environments: ["prod", "staging"],
      outcomes: ["ok", "failed", "declined", "refused", "not_found", "timed_out", "invalid_arguments", "result_rejected", "cancelled"],
      truncated: [],
      counts: expect.any(Object),
    });
    expect(body.page).toEqual({ total: 4, offset: 0, limit: 100 });
  });

  it("counts each filter value's attempts in the window: what the tools answer narrowed to that value adds up to", async () => {
    const { body } = await get(`/api/v1/tools?${WINDOW}`);
    const filterOf = { codes: "code", errorClasses: "error_class", releases: "release", services: "service", environments: "environment", outcomes: "outcome" } as const;
    const total = (tools: { attempts: number }[]) => tools.reduce((n, t) => n + t.attempts, 0);
    const expected: Record<string, Record<string, number>> = {};
    for (const [facet, key] of Object.entries(filterOf)) {
      expected[facet] = {};
      for (const value of body.facets[facet] as string[]) {
        const narrowed = await get(`/api/v1/tools?${WINDOW}&${key}=${encodeURIComponent(value)}`);
        const n = total(narrowed.body.tools);
        if (n > 0) expected[facet]![value] = n;
      }
    }
    expect(body.facets.counts).toEqual(expected);
    // Every attempt has one outcome: the outcome counts add up to the attempts of the window.
    expect(Object.values(body.facets.counts.outcomes as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(total(body.tools));
    expect(Object.keys(body.facets.counts.outcomes).length).toBeGreaterThan(2);
  });

  it("narrows to one environment, delays and attempts included, and keeps the facets unfiltered", async () => {
    const staging = await get(`/api/v1/tools?${WINDOW}&environment=staging`);
    expect(staging.status).toBe(200);
    expect(staging.body.tools).toEqual([LOOKUP]);
    expect(staging.body.delaysIgnoreFilters).toEqual([]);
    expect(staging.body.facets.environments).toEqual(["prod", "staging"]);
    const prod = await get(`/api/v1/tools?${WINDOW}&environment=prod`);
    expect(prod.body.tools).toEqual([CANCEL, SCRIPT, FORMULA]);
    // The detail's attempt histogram and delays come from the attempt and delay rollups: narrowed too.
    const lookup = await get(`/api/v1/tools/detail?${WINDOW}&tool=lookup&environment=staging`);
    expect(lookup.body.summary).toEqual(LOOKUP);
    expect(lookup.body.attemptsPerCall.histogram).toEqual([{ attempts: 1, calls: 3 }]);
    const none = await get(`/api/v1/tools/detail?${WINDOW}&tool=cancel_booking&environment=staging`);
    expect(none.body.attemptsPerCall).toMatchObject({ single: 0, retried: 0, histogram: [] });
    expect(none.body.delayHistogram.filter((b: { retryAfter: number; backoff: number }) => b.retryAfter + b.backoff > 0)).toEqual([]);
  });

  it("sorts by any column, nulls last", async () => {
    const asc = await get(`/api/v1/tools?${WINDOW}&sort=mean_attempts&dir=asc`);
    expect(asc.body.tools.map((t: { tool: string }) => t.tool)).toEqual([FORMULA_TOOL, "lookup", "cancel_booking", SCRIPT_TOOL]);
    const p90 = await get(`/api/v1/tools?${WINDOW}&sort=retry_after_p90&dir=desc`);
    expect(p90.body.tools.map((t: { tool: string }) => t.tool)).toEqual(["cancel_booking", SCRIPT_TOOL, FORMULA_TOOL, "lookup"]);
  });

  it("filters by code, release and outcome (delays ignore outcome and class)", async () => {
    const byCode = await get(`/api/v1/tools?${WINDOW}&code=upstream_unavailable`);
    expect(byCode.body.tools.map((t: { tool: string; attempts: number; failures: number }) => [t.tool, t.attempts, t.failures])).toEqual([
      ["cancel_booking", 2, 2],
      ["lookup", 1, 1],
    ]);
    const byRelease = await get(`/api/v1/tools?${WINDOW}&release=r2&sort=tool&dir=asc`);
    expect(byRelease.body.tools.map((t: { tool: string; attempts: number }) => [t.tool, t.attempts])).toEqual([["cancel_booking", 2], ["lookup", 3]]);
    const byOutcome = await get(`/api/v1/tools?${WINDOW}&outcome=declined&error_class=ToolRefusal`);
    expect(byOutcome.body.delaysIgnoreFilters).toEqual(["outcome", "error_class"]);
    expect(byOutcome.body.tools).toHaveLength(1);
    expect(byOutcome.body.tools[0]).toMatchObject({ tool: "cancel_booking", attempts: 1, declined: 1, refused: 0 });
  });

  it("exports CSV with escaping and the formula guard, and NDJSON", async () => {
    const csv = await fetch(server().at(`/api/v1/tools?${WINDOW}&format=csv`));
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // Readable UTC times in the name, not epoch milliseconds.
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="faultline-tools-[A-Za-z0-9_-]+-2026-01-10T0000Z-to-2026-01-10T0300Z\.csv"$/);
    const lines = (await csv.text()).split("\r\n");
    expect(lines[0]).toBe(
      "tool,calls,attempts,failures,failure_rate,declined,refused,mean_attempts,max_attempts,retry_share,failed_closed,top_codes,retry_after_p50_ms,retry_after_p90_ms,backoff_p50_ms,backoff_p90_ms,unnumbered_attempts,calls_not_ok,call_not_ok_rate",
    );
    expect(lines[1]).toBe("cancel_booking,4,5,4,0.8,1,1,1.25,2,0.25,1,upstream_unavailable:2 booking_not_cancellable:1 not_permitted:1,2000,3600000,30000,30000,0,3,0.75");
    expect(lines[2]).toBe("<script>alert(1)</script>,2,4,2,0.5,0,0,2,3,0.5,0,<b>bold</b>:2,1000,1000,1000,5000,0,0,0");
    expect(lines[4]).toBe(`"'=SUM(1,2)",1,1,0,0,0,0,1,1,0,0,,,,,,0,0,0`);
    expect(lines).toHaveLength(6);
    const nd = await fetch(server().at(`/api/v1/tools?${WINDOW}&format=ndjson`));
    expect(nd.headers.get("content-disposition")).toContain(".ndjson");
    const rows = (await nd.text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toEqual([CANCEL, SCRIPT, LOOKUP, FORMULA]);
  });
});

describe("GET /api/v1/tools/detail", () => {
  it("answers one tool's charts, delays, releases and recent failing runs", async () => {
    const { status, body } = await get(`/api/v1/tools/detail?${WINDOW}&tool=${encodeURIComponent(SCRIPT_TOOL)}`);
    expect(status).toBe(200);
    expect(body.summary).toEqual(SCRIPT);
    expect(body.outcomeSeries).toEqual([
      { t: H + 2 * HOUR, outcome: "failed", attempts: 2 },
      { t: H + 2 * HOUR, outcome: "ok", attempts: 2 },
    ]);
    expect(body.codeSeries).toEqual([{ t: H + 2 * HOUR, code: MARKUP_CODE, failures: 2 }]);
    expect(body.outcomes).toEqual([{ outcome: "failed", attempts: 2 }, { outcome: "ok", attempts: 2 }]);
    // c5 took three attempts, c6 one: one single-attempt call, one retried call averaging 1 + 2/1.
    expect(body.attemptsPerCall).toEqual({
      single: 1, retried: 1, meanAttemptsWhenRetried: 3, maxAttempts: 3,
      histogram: [{ attempts: 1, calls: 1 }, { attempts: 3, calls: 1 }],
    });
    expect(body.delayHistogram.filter((b: { retryAfter: number; backoff: number }) => b.retryAfter + b.backoff > 0)).toEqual([
      { bucketMs: 1000, retryAfter: 2, backoff: 1 },
      { bucketMs: 5000, retryAfter: 0, backoff: 1 },
    ]);
    expect(body.delaysByCode).toEqual([
      { code: MARKUP_CODE, retryAfterMeanMs: 1000, backoffMeanMs: 3000, retryAfterCount: 2, backoffCount: 2, failedClosed: 0 },
    ]);
    expect(body.releases).toEqual([{ release: "r1", attempts: 4, failures: 2, firstSeen: H + 2 * HOUR, lastSeen: H + 2 * HOUR }]);
    expect(body.recentFailingRuns).toEqual([
      { runId: "run-3", lastAt: H + 2 * HOUR + 2 * MIN, failedAttempts: 2, codes: [MARKUP_CODE], outcomes: ["failed"], maxAttempt: 2 },
    ]);
  });

  it("shows a tool asking 2 s and waiting 30 s, and one failing closed on 1 h", async () => {
    const { body } = await get(`/api/v1/tools/detail?${WINDOW}&tool=cancel_booking`);
    expect(body.delaysByCode).toEqual([
      { code: "upstream_unavailable", retryAfterMeanMs: 1_801_000, backoffMeanMs: 30_000, retryAfterCount: 2, backoffCount: 1, failedClosed: 1 },
    ]);
    expect(body.releases.map((r: { release: string }) => r.release)).toEqual(["r2", "r1"]);
    expect(body.recentFailingRuns.map((r: { runId: string; failedAttempts: number }) => [r.runId, r.failedAttempts])).toEqual([["run-2", 2], ["run-1", 2]]);
  });

  it("answers an unknown tool with zeros", async () => {
    const { body } = await get(`/api/v1/tools/detail?${WINDOW}&tool=nope`);
    expect(body.summary).toMatchObject({ tool: "nope", attempts: 0, calls: 0, unnumbered: 0, failureRate: null });
    expect(body.recentFailingRuns).toEqual([]);
  });
});
