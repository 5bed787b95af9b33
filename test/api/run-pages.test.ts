import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRows } from "@/db/ingest/write-rows";
import type { RunTimeline } from "@/lib/contracts/runs";
import { openProject, type ProjectServer } from "../helpers/project";
import { H, everyDecisionRun } from "./runs-fixture";

// The run of runs-fixture.ts (18 attempts in 10 calls, 7 final errors), plus a call known only from
// its final error: which page carries what, at 8 attempts a page.
let server: ProjectServer;
beforeAll(async () => {
  server = await openProject({
    seed: async (store, project) => {
      const { runs, spans, errors } = everyDecisionRun();
      const lost = { ...errors[0]!, eventId: "lost-err", callId: "c11", tool: "refund_payment", occurredAt: H + 30_000, told: "refund_payment failed" };
      await writeRows(store, project, {
        runs: runs.map((row, index) => ({ index, row })),
        spans: spans.map((row, index) => ({ index, row })),
        toolErrors: [...errors, lost].map((row, index) => ({ index, row })),
      }, H + 200_000);
    },
  });
});
afterAll(async () => {
  await server?.stop();
});

const get = async (path: string) => {
  const res = await fetch(server.at(path));
  return { status: res.status, body: (await res.json()) as RunTimeline & { error?: { code: string; issues: { path: string }[] } } };
};
const RUN = "/api/v1/runs/run-every-decision";
/** A page as [call id, its attempts' span ids, its final decision] per call. */
const callsOf = (t: RunTimeline) => t.calls.map((c) => [c.callId, c.attempts.map((a) => a[0]), c.error?.decision ?? null]);
/** Every attempt of a page as [span id, epoch start, epoch end]. */
const absolute = (t: RunTimeline) => t.calls.flatMap((c) => c.attempts.map((a) => [a[0], t.t0 + a[2], t.t0 + a[3]] as const));

describe("GET /api/v1/runs/:runId in pages", () => {
  it("answers a run that fits one page whole, with its totals", async () => {
    const { status, body } = await get(RUN);
    expect(status).toBe(200);
    expect(body.page).toEqual({ next: null, totalAttempts: 18, totalCalls: 11 });
    expect(body.calls.map((c) => c.callId)).toEqual(["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11"]);
  });

  it("walks the run 8 attempts at a time: each page its calls' attempts, errors and told steps; error-only calls last", async () => {
    const first = await get(`${RUN}?limit=8`);
    expect(first.status).toBe(200);
    expect(first.body.page).toEqual({ next: expect.stringMatching(/^\d+\.-1\.\d+$/), totalAttempts: 18, totalCalls: 11 });
    expect(first.body.t0).toBe(H);
    expect(callsOf(first.body)).toEqual([
      ["c1", ["c1-a1", "c1-a2"], null],
      ["c2", ["c2-a1"], null],
      ["c3", ["c3-a1"], "delivered"],
      ["c4", ["c4-a1"], "surfaced"],
      ["c5", ["c5-a1"], "failed_run"],
      ["c6", ["c6-a1"], "failed_closed"],
      // The call continues on the next page; its final error comes with both.
      ["c7", ["c7-a1"], "exhausted"],
    ]);
    expect(first.body.toldSteps.map((s) => [s.callId, s.step])).toEqual([["c3", "run_failed"], ["c4", "unknown"], ["c6", "unknown"], ["c7", "run_failed"]]);

    const second = await get(`${RUN}?limit=8&after=${first.body.page.next}`);
    expect(second.status).toBe(200);
    // Later pages do not count the run again.
    expect(second.body.page).toEqual({ next: expect.stringMatching(/^\d+\.-1\.\d+$/), totalAttempts: null, totalCalls: null });
    expect(second.body.t0).toBe(H + 4000);
    expect(callsOf(second.body)).toEqual([
      ["c7", ["c7-a2", "c7-a3"], "exhausted"],
      ["c8", ["c8-a1", "c8-a2", "c8-a3", "c8-a4"], "budget_capped"],
      ["c9", ["c9-a1"], "cancelled"],
      ["c10", ["c10-a1"], null],
    ]);
    expect(second.body.toldSteps.map((s) => [s.callId, s.step])).toEqual([["c7", "run_failed"], ["c8", "run_failed"]]);
    expect(second.body.run?.state).toBe("failed");

    const last = await get(`${RUN}?limit=8&after=${second.body.page.next}`);
    expect(last.body.page).toEqual({ next: null, totalAttempts: null, totalCalls: null });
    expect(callsOf(last.body)).toEqual([
      ["c10", ["c10-a3", "c10-ax"], null],
      ["c11", [], "delivered"],
    ]);
    expect(last.body.calls[1]?.error?.told).toBe("refund_payment failed");

    // Together the pages are the whole run, attempt for attempt, at the same times.
    const whole = await get(RUN);
    expect([first, second, last].flatMap((p) => absolute(p.body)).sort()).toEqual(absolute(whole.body).sort());
  });

  it("ends on a page that is exactly full", async () => {
    const first = await get(`${RUN}?limit=9`);
    const second = await get(`${RUN}?limit=9&after=${first.body.page.next}`);
    expect(first.body.page.next).not.toBeNull();
    expect(second.body.page.next).toBeNull();
    expect([absolute(first.body).length, absolute(second.body).length]).toEqual([9, 9]);
    expect(second.body.calls.map((c) => c.callId)).toEqual(["c7", "c8", "c9", "c10", "c11"]);
  });

  it("refuses a limit out of range and a cursor it did not make", async () => {
    for (const q of ["limit=0", "limit=5001", "limit=x", "after=abc", "after=1.2", "after=1.2.3.4"]) {
      const { status, body } = await get(`${RUN}?${q}`);
      expect({ q, status, code: body.error?.code, paths: body.error?.issues.map((i) => i.path) }).toEqual({
        q, status: 400, code: "bad_request", paths: [q.split("=")[0]],
      });
    }
  });
});
