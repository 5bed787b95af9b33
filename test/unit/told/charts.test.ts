import { describe, expect, it } from "vitest";
import { layoutTimeline } from "@/lib/charts/timeline-layout";
import { arrowsInRows, toldArrows } from "@/lib/charts/told-arrows";
import { repeatText, selfCorrectionText, toldShares } from "@/lib/charts/told-shares";
import type { AttemptTuple, RunTimeline } from "@/lib/contracts/runs";
import { stepCounts } from "@/lib/told/rates";

const T = Date.UTC(2027, 0, 1);
const STRINGS = ["ok", "failed"];
const attempt = (id: string, start: number, end: number, outcome: 0 | 1): AttemptTuple => [id, 1, start, end, outcome, null, null, null, null, null, null, null, null];

function timeline(): RunTimeline {
  return {
    runId: "r",
    t0: T,
    strings: STRINGS,
    codedBy: {},
    run: null,
    page: { next: null, totalAttempts: 3, totalCalls: 3 },
    calls: [
      { callId: "c1", tool: "book", attempts: [attempt("s1", 0, 100, 1)], error: null },
      { callId: "c2", tool: "search", attempts: [attempt("s2", 300, 350, 0)], error: null },
      { callId: "c3", tool: "book", attempts: [attempt("s3", 500, 600, 0)], error: null },
    ],
    toldSteps: [
      { callId: "c1", tool: "book", code: "bad_date", step: "recovered", nextCallId: "c3", nextTool: "book", callsUntilRecovery: 1 },
      { callId: "c9", tool: "refund", code: "nope", step: "gave_up", nextCallId: null, nextTool: null, callsUntilRecovery: null },
    ],
  };
}

describe("timeline arrows after the model was told", () => {
  it("runs from the end of the error's call to the start of the recovering call, lane centre to lane centre", () => {
    const layout = layoutTimeline(timeline());
    const [recovered, gaveUp] = toldArrows(layout, timeline().toldSteps);
    const book = layout.rows.filter((r) => r.kind === "call" && r.tool === "book");
    expect(recovered).toMatchObject({ step: "recovered", recovery: true, fromCallId: "c1", toCallId: "c3", fromMs: 100, toMs: 500, drawn: true });
    expect(recovered!.fromRow).toBe(book[0]!.index);
    expect(recovered!.toRow).toBe(book[1]!.index);
    expect(recovered!.fromY).toBe(book[0]!.y + 14);
    expect(recovered!.description).toBe("The model was told bad_date from book (call c1): recovered — call c3 of book.");
    // No lane, no next call: listed, not drawn.
    expect(gaveUp).toMatchObject({ step: "gave_up", drawn: false, fromRow: null, toRow: null, description: "The model was told nope from refund (call c9): gave up." });
  });

  it("draws only arrows crossing the rows in view", () => {
    const layout = layoutTimeline(timeline());
    const arrows = toldArrows(layout, timeline().toldSteps);
    const [a] = arrows;
    expect(arrowsInRows(arrows, 0, layout.rows.length)).toEqual([a]);
    expect(arrowsInRows(arrows, Math.max(a!.fromRow!, a!.toRow!) + 1, layout.rows.length)).toEqual([]);
    expect(arrowsInRows(arrows, a!.toRow!, a!.toRow! + 1)).toEqual([a]);
  });
});

describe("next-step shares", () => {
  it("has segments for steps that happened and an explicit zero for every other step", () => {
    const s = toldShares(stepCounts([{ step: "recovered", runState: "completed", calls: 1, errors: 3 }, { step: "gave_up", runState: "completed", calls: 0, errors: 1 }]));
    expect(s.total).toBe(4);
    expect(s.segments.map((x) => [x.step, x.errors, x.share])).toEqual([["recovered", 3, 0.75], ["gave_up", 1, 0.25]]);
    expect(s.legend).toHaveLength(8);
    expect(s.legend.find((l) => l.step === "repeated")).toEqual({ step: "repeated", label: "repeated the same call", errors: 0, share: 0 });
    expect(s.description).toBe(
      "4 surfaced errors: recovered 3 (75%), replaced by another tool 0, repeated the same call 0, changed the call, failed again 0, called again, failed (repeat unknown) 0, gave up 1 (25%), run failed 0, pending (run still open) 0.",
    );
  });

  it("is a gap, not a zero, when nothing was surfaced", () => {
    const s = toldShares(stepCounts([]));
    expect(s).toMatchObject({ total: 0, segments: [], description: "No error was surfaced to the model." });
  });

  it("says why a rate is missing or shaky", () => {
    expect(selfCorrectionText({ surfaced: 0, decided: 0, recovered: 0, selfCorrection: null }, 10)).toEqual({ text: "—", reason: "no error was surfaced to the model", lowSample: false });
    expect(selfCorrectionText({ surfaced: 2, decided: 0, recovered: 0, selfCorrection: null }, 10)).toEqual({ text: "—", reason: "all 2 surfaced errors are still pending (their runs have not ended)", lowSample: false });
    expect(selfCorrectionText({ surfaced: 4, decided: 4, recovered: 3, selfCorrection: 0.75 }, 10)).toEqual({ text: "75%", reason: "only 4 decided errors (fewer than 10): a small sample", lowSample: true });
    expect(selfCorrectionText({ surfaced: 40, decided: 30, recovered: 6, selfCorrection: 0.2 }, 10)).toEqual({ text: "20%", reason: null, lowSample: false });
    expect(repeatText({ decided: 3, repeatJudged: 0, repeatRate: null })).toEqual({ text: "—", reason: "no arguments hash to tell a repeat from a change", lowSample: false });
  });
});
