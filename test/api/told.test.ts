import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codesSchema } from "@/lib/contracts/codes";
import { driftFindingsResponseSchema } from "@/lib/contracts/drift";
import { runFacetsSchema, runListResponseSchema, runTimelineSchema } from "@/lib/contracts/runs";
import { toldAnswerSchema } from "@/lib/contracts/told";
import { openProject, type ProjectServer } from "../helpers/project";
import { allRecords, type ToldRunSpec } from "../helpers/told-runs";

// "After the model was told" through the real server: native records in over HTTP, the told API,
// the Codes column, the runs list's unanswered filter, the timeline's steps and the drift finding.

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const T = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 2 * 86_400_000;
const HELPFUL = 'error: bad_date: got "next friday"; dates are YYYY-MM-DD, for example 2027-03-14';
const TERSE = "error: bad_date: invalid";

async function ingest(records: unknown[]): Promise<void> {
  for (let at = 0; at < records.length; at += 500) {
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
      body: JSON.stringify({ resource: { service: "told-agent" }, records: records.slice(at, at + 500) }),
    });
    expect(res.status).toBe(200);
  }
}

const told = async (qs: string) => {
  const res = await fetch(server.at(`/api/v1/told${qs}`));
  expect(res.status).toBe(200);
  return toldAnswerSchema.parse(await res.json());
};

/** n runs of one release and wording, the first `recovered` of them recovering, the rest giving up. */
function runs(prefix: string, release: string, wording: string, n: number, recovered: number, from: number): ToldRunSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    runId: `${prefix}-${i}`, release, tool: "book_flight", code: "bad_date", told: wording.replace("next friday", `day ${i}`),
    next: i < recovered ? ("recovered" as const) : ("gave_up" as const), at: from + i * 60_000,
  }));
}

describe("GET /api/v1/told", () => {
  beforeAll(async () => {
    await ingest([
      // 1.3.0: the helpful wording, 12 of 15 recovered; a repeat and a replacement on another code.
      ...runs("a", "1.3.0", HELPFUL, 15, 12, T),
      // 1.4.0: the terse wording, 2 of 15 recovered: a drop the drift page reports.
      ...runs("b", "1.4.0", TERSE, 15, 2, T + 86_400_000),
      { runId: "c-0", release: "1.4.0", tool: "book_flight", code: "sold_out", told: "error: sold_out: no seats", next: "repeated" as const, at: T + 86_400_000 },
      { runId: "c-1", release: "1.4.0", tool: "cancel_booking", code: "not_cancellable", told: "not_cancellable: non-refundable", next: "replaced" as const, at: T + 86_400_000, otherTool: "refund_payment" },
      { runId: "c-2", release: "1.4.0", tool: "book_flight", code: "bad_date", told: TERSE, next: "pending" as const, at: T + 86_400_000 },
    ].flatMap(allRecords));
  });

  it("counts only the errors told in a window when one is given, and says which", async () => {
    const all = await told("?code=bad_date");
    expect(all.window).toBeNull();
    expect([all.rates.surfaced, all.rates.decided, all.rates.recovered]).toEqual([31, 30, 14]);
    // The hour of release 1.4.0: its 15 runs (2 recovered) and the pending one.
    const from = T + 86_400_000;
    const hour = await told(`?code=bad_date&from=${from}&to=${from + 3_600_000}`);
    expect(hour.window).toEqual({ from, to: from + 3_600_000, stepMs: 3_600_000 });
    expect([hour.rates.surfaced, hour.rates.decided, hour.rates.recovered]).toEqual([16, 15, 2]);
    expect(hour.releases.map((r) => r.release)).toEqual(["1.4.0"]);
    expect(hour.wordings.map((w) => [w.shape, w.rates.surfaced])).toEqual([["error: <code>: invalid", 16]]);
    expect(hour.wordings[0]!.samples.every((x) => x.occurredAt >= from && x.occurredAt < from + 3_600_000)).toBe(true);
    // A range ending now: none of the errors (all a day old or more) in the last hour.
    expect((await told("?code=bad_date&range=1h")).rates.surfaced).toBe(0);
  });

  it("shares every next step of a code, zeros included, with its rates", async () => {
    const d = await told("?code=bad_date");
    expect(d.filter).toEqual({ code: "bad_date", tool: null, release: null });
    expect(d.steps).toEqual([
      { step: "recovered", errors: 14 },
      { step: "replaced", errors: 0 },
      { step: "repeated", errors: 0 },
      { step: "changed_failed", errors: 0 },
      { step: "unknown", errors: 0 },
      { step: "gave_up", errors: 16 },
      { step: "run_failed", errors: 0 },
      { step: "pending", errors: 1 },
    ]);
    expect(d.rates).toEqual({
      surfaced: 31, decided: 30, recovered: 14, selfCorrection: 14 / 30, repeated: 0, repeatJudged: 30, repeatRate: 0, medianCallsUntilRecovery: 1,
      finalStates: [{ state: "completed", errors: 30 }, { state: "failed", errors: 0 }, { state: "cancelled", errors: 0 }, { state: "open", errors: 0 }],
    });
    expect(d.releaseOrder).toBe("semver");
    expect(d.releases.map((r) => [r.release, r.rates.decided, r.rates.recovered])).toEqual([["1.3.0", 15, 12], ["1.4.0", 15, 2]]);
    expect(d.groups.map((g) => [g.code, g.tool, g.rates.surfaced])).toEqual([["bad_date", "book_flight", 31]]);
  });

  it("ranks the wordings by recovery, with example runs: the exact told text → the next call", async () => {
    const d = await told("?code=bad_date");
    expect(d.wordingCount).toBe(2);
    expect(d.wordings.map((w) => [w.shape, w.rates.decided, w.rates.recovered])).toEqual([
      ["error: <code>: got <value>; dates are YYYY-MM-DD, for example <time>", 15, 12],
      ["error: <code>: invalid", 15, 2],
    ]);
    const [best] = d.wordings;
    // The latest recovered example first, then the latest that was not, then the next latest recovered.
    expect(best!.samples.map((s) => [s.runId, s.step, s.told, s.next])).toEqual([
      ["a-11", "recovered", 'error: bad_date: got "day 11"; dates are YYYY-MM-DD, for example 2027-03-14', { callId: "a-11-c2", tool: "book_flight", outcome: "ok", code: null }],
      ["a-14", "gave_up", 'error: bad_date: got "day 14"; dates are YYYY-MM-DD, for example 2027-03-14', null],
      ["a-10", "recovered", 'error: bad_date: got "day 10"; dates are YYYY-MM-DD, for example 2027-03-14', { callId: "a-10-c2", tool: "book_flight", outcome: "ok", code: null }],
    ]);
  });

  it("narrows by tool and release, and answers a gap (nothing surfaced) as zeros without rates", async () => {
    const byTool = await told("?tool=cancel_booking");
    expect(byTool.steps.filter((s) => s.errors > 0)).toEqual([{ step: "replaced", errors: 1 }]);
    expect(byTool.wordings[0]!.samples[0]!.next).toEqual({ callId: "c-1-c2", tool: "refund_payment", outcome: "ok", code: null });
    const book14 = await told("?tool=book_flight&release=1.4.0");
    expect(book14.groups.map((g) => [g.code, g.rates.surfaced, g.rates.repeated])).toEqual([["bad_date", 16, 0], ["sold_out", 1, 1]]);
    const none = await told("?code=never_seen");
    expect(none.rates).toMatchObject({ surfaced: 0, decided: 0, selfCorrection: null, repeatRate: null, medianCallsUntilRecovery: null });
    expect(none.steps.every((s) => s.errors === 0)).toBe(true);
    expect([none.wordings, none.releases, none.groups]).toEqual([[], [], []]);
  });

  it("refuses a bad query with the error envelope", async () => {
    const res = await fetch(server.at(`/api/v1/told?code=${"x".repeat(600)}`));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; message: string; issues: { path: string }[] } };
    expect(body.error.code).toBe("bad_request");
    expect(body.error.message).toMatch(/^invalid query: code/);
    expect(body.error.issues.map((i) => i.path)).toEqual(["code"]);
  });

  it("puts the recovery rate on the Codes table rows", async () => {
    const res = await fetch(server.at("/api/v1/codes?range=30d"));
    const codes = codesSchema.parse(await res.json()).codes;
    expect(codes.find((c) => c.code === "bad_date")!.told).toEqual({ surfaced: 31, decided: 30, recovered: 14, selfCorrection: 14 / 30 });
    expect(codes.find((c) => c.code === "sold_out")!.told).toEqual({ surfaced: 1, decided: 1, recovered: 0, selfCorrection: 0 });
  });

  it("draws each surfaced error's next step on its run's timeline", async () => {
    const res = await fetch(server.at("/api/v1/runs/a-3"));
    const timeline = runTimelineSchema.parse(await res.json());
    expect(timeline.toldSteps).toEqual([
      { callId: "a-3-c1", tool: "book_flight", code: "bad_date", step: "recovered", nextCallId: "a-3-c2", nextTool: "book_flight", callsUntilRecovery: 1 },
    ]);
  });

  it("reports the drop in recovery between releases as a model behaviour finding", async () => {
    await server.driftFolded();
    const res = await fetch(server.at("/api/v1/drift?kind=model_behaviour"));
    const { findings } = driftFindingsResponseSchema.parse(await res.json());
    expect(findings.map((f) => [f.kind, f.metric, f.code, f.tool, f.fromRelease, f.toRelease, f.beforeCalls, f.afterCalls, f.verdict])).toEqual([
      ["model_behaviour", "self_correction", "bad_date", "book_flight", "1.3.0", "1.4.0", 15, 15, "violation"],
    ]);
    expect(findings[0]!.selfCorrection).toMatchObject({ before: { rate: 0.8 }, after: { rate: 2 / 15 } });
  });
});

describe("runs whose model turns left a tool call unanswered", () => {
  it("are counted and listed with the runs list's unanswered filter", async () => {
    const run = (id: string, unanswered: number | undefined) => ({
      type: "run", id, run_id: id, agent: "told-agent", started_at: T, ended_at: T + 1000, state: "completed",
      ...(unanswered === undefined ? {} : { unanswered_tool_uses: unanswered }),
    });
    await ingest([run("u-1", 2), run("u-2", 0), run("u-3", undefined)]);
    const list = runListResponseSchema.parse(await (await fetch(server.at("/api/v1/runs?unanswered=1"))).json());
    expect(list.runs.map((r) => [r.runId, r.unansweredToolUses])).toEqual([["u-1", 2]]);
    const all = runListResponseSchema.parse(await (await fetch(server.at("/api/v1/runs?limit=200"))).json());
    expect(all.runs.filter((r) => r.runId.startsWith("u-")).map((r) => [r.runId, r.unansweredToolUses]).sort()).toEqual([["u-1", 2], ["u-2", 0], ["u-3", null]]);
    const facets = runFacetsSchema.parse(await (await fetch(server.at("/api/v1/run-facets"))).json());
    expect(facets.unansweredRuns).toBe(1);
    const bad = await fetch(server.at("/api/v1/runs?unanswered=yes"));
    expect(bad.status).toBe(400);
  });
});
