import { describe, expect, it } from "vitest";
import { classifyRun, nextStepOf, orderCalls, toldRunState, type RunCall, type RunEnd, type SurfacedError } from "@/lib/told/next-step";

// Hand-built runs: each call is [callId, tool, startedAt, outcome, code, argsHash, afterError].
type CallSpec = [string, string, number, string | null, string | null, string | null, (string | null)?];
const calls = (...specs: CallSpec[]): RunCall[] =>
  specs.map(([callId, tool, startedAt, outcome, code, argsHash, afterError]) => ({ callId, tool, startedAt, outcome, code, argsHash, afterError: afterError ?? null }));
const error = (callId: string, tool: string, code: string, occurredAt: number, eventId = `e-${callId}`): SurfacedError => ({ eventId, callId, tool, code, occurredAt });
const completed: RunEnd = { ended: true, state: "completed" };
const open: RunEnd = { ended: false, state: "running" };
const H1 = "1111111111111111";
const H2 = "2222222222222222";

/** The one error's step, with the call that decided it and the calls until recovery. */
function step(run: RunCall[], e: SurfacedError, end: RunEnd = completed, errors: SurfacedError[] = [e]) {
  const s = nextStepOf(e, orderCalls(run), end, errors);
  return { step: s.step, next: s.next?.callId ?? null, calls: s.callsUntilRecovery, runState: s.runState };
}

describe("the next step of an error surfaced to the model", () => {
  it("recovered by the same tool: its next call with changed arguments ends ok", () => {
    const run = calls(["c1", "book", 0, "invalid_arguments", "bad_date", H1], ["c2", "book", 200, "ok", null, H2]);
    expect(step(run, error("c1", "book", "bad_date", 100))).toEqual({ step: "recovered", next: "c2", calls: 1, runState: "completed" });
  });

  it("recovered by the same tool after failing again first: calls until recovery counts the tool's tries", () => {
    const run = calls(["c1", "book", 0, "failed", "x", H1], ["c2", "book", 200, "failed", "y", H2], ["c3", "search", 300, "ok", null, H1], ["c4", "book", 400, "ok", null, H1]);
    // c3 is not the very next call (c2 is), so it is no replacement; c4 is the tool's second try.
    expect(step(run, error("c1", "book", "x", 100))).toEqual({ step: "recovered", next: "c4", calls: 2, runState: "completed" });
  });

  it("replaced: without a link, the very next call is another tool and ends ok", () => {
    const run = calls(["c1", "cancel", 0, "declined", "not_cancellable", H1], ["c2", "refund", 150, "ok", null, H2]);
    expect(step(run, error("c1", "cancel", "not_cancellable", 100))).toEqual({ step: "replaced", next: "c2", calls: 1, runState: "completed" });
  });

  it("not replaced by a later ok call of another tool that is not the very next call (the previous attempt's bug)", () => {
    const run = calls(["c1", "cancel", 0, "declined", "not_cancellable", H1], ["c2", "lookup", 150, "failed", "boom", H1], ["c3", "refund", 300, "ok", null, H2]);
    expect(step(run, error("c1", "cancel", "not_cancellable", 100))).toEqual({ step: "gave_up", next: null, calls: null, runState: "completed" });
  });

  it("not replaced by the very next call when the runtime said that call answers no error ('')", () => {
    const run = calls(["c1", "cancel", 0, "declined", "nope", H1], ["c2", "search", 150, "ok", null, H2, ""]);
    expect(step(run, error("c1", "cancel", "nope", 100))).toEqual({ step: "gave_up", next: null, calls: null, runState: "completed" });
  });

  it("replaced through the runtime's explicit link even when another call came first", () => {
    const run = calls(["c1", "cancel", 0, "declined", "nope", H1], ["c2", "lookup", 150, "ok", null, H1], ["c3", "refund", 300, "ok", null, H2, "c1"]);
    expect(step(run, error("c1", "cancel", "nope", 100))).toEqual({ step: "replaced", next: "c3", calls: 1, runState: "completed" });
  });

  it("a link elsewhere overrides the very-next rule: the next call answers another error, not this one", () => {
    const run = calls(["c1", "cancel", 0, "declined", "nope", H1], ["c2", "search", 0, "failed", "timeout", H1], ["c3", "search", 300, "ok", null, H1, "c2"]);
    const e1 = error("c1", "cancel", "nope", 100);
    const e2 = error("c2", "search", "timeout", 110);
    expect(step(run, e1, completed, [e1, e2])).toEqual({ step: "gave_up", next: null, calls: null, runState: "completed" });
    expect(step(run, e2, completed, [e1, e2])).toEqual({ step: "recovered", next: "c3", calls: 1, runState: "completed" });
  });

  it("without links, the next call retrying its own tool's error is not a replacement for another tool's error", () => {
    const run = calls(["c1", "cancel", 0, "declined", "nope", H1], ["c2", "search", 0, "failed", "timeout", H1], ["c3", "search", 300, "ok", null, H1]);
    const e1 = error("c1", "cancel", "nope", 100);
    const e2 = error("c2", "search", "timeout", 110);
    expect(classifyRun(run, [e1, e2], completed).map((s) => [s.eventId, s.step])).toEqual([
      ["e-c1", "gave_up"],
      ["e-c2", "recovered"],
    ]);
  });

  it("repeated: the same tool again with the same arguments hash and the same code", () => {
    const run = calls(["c1", "book", 0, "failed", "sold_out", H1], ["c2", "book", 200, "failed", "sold_out", H1]);
    expect(step(run, error("c1", "book", "sold_out", 100))).toEqual({ step: "repeated", next: "c2", calls: null, runState: "completed" });
  });

  it("changed and failed again: another arguments hash, failed again", () => {
    const run = calls(["c1", "book", 0, "failed", "sold_out", H1], ["c2", "book", 200, "failed", "sold_out", H2]);
    expect(step(run, error("c1", "book", "sold_out", 100))).toEqual({ step: "changed_failed", next: "c2", calls: null, runState: "completed" });
  });

  it("the same arguments meeting another code is not a repeat of the message's call", () => {
    const run = calls(["c1", "book", 0, "failed", "sold_out", H1], ["c2", "book", 200, "timed_out", "timeout", H1]);
    expect(step(run, error("c1", "book", "sold_out", 100)).step).toBe("changed_failed");
  });

  it("no hash → unknown: the tool was called again and failed, but nothing says whether it repeated", () => {
    expect(step(calls(["c1", "book", 0, "failed", "x", null], ["c2", "book", 200, "failed", "x", H1]), error("c1", "book", "x", 100))).toEqual({ step: "unknown", next: "c2", calls: null, runState: "completed" });
    expect(step(calls(["c1", "book", 0, "failed", "x", H1], ["c2", "book", 200, "failed", "x", null]), error("c1", "book", "x", 100)).step).toBe("unknown");
    // A tool error whose call left no span has no hash either.
    expect(step(calls(["c2", "book", 200, "failed", "x", H1]), error("c1", "book", "x", 100)).step).toBe("unknown");
  });

  it("gave up: no later call of the tool and the run completed", () => {
    const run = calls(["c1", "book", 0, "failed", "x", H1], ["c2", "search", 200, "failed", "y", H1]);
    expect(step(run, error("c1", "book", "x", 100))).toEqual({ step: "gave_up", next: null, calls: null, runState: "completed" });
  });

  it("run failed: no later call of the tool and the run failed or was cancelled", () => {
    const run = calls(["c1", "book", 0, "failed", "x", H1]);
    expect(step(run, error("c1", "book", "x", 100), { ended: true, state: "failed" })).toEqual({ step: "run_failed", next: null, calls: null, runState: "failed" });
    expect(step(run, error("c1", "book", "x", 100), { ended: true, state: "cancelled" })).toEqual({ step: "run_failed", next: null, calls: null, runState: "cancelled" });
  });

  it("pending while the run has not ended; a recovery is decided even before the run ends", () => {
    expect(step(calls(["c1", "book", 0, "failed", "x", H1]), error("c1", "book", "x", 100), open)).toEqual({ step: "pending", next: null, calls: null, runState: "open" });
    expect(step(calls(["c1", "book", 0, "failed", "x", H1], ["c2", "book", 200, "ok", null, H2]), error("c1", "book", "x", 100), open)).toEqual({ step: "recovered", next: "c2", calls: 1, runState: "open" });
  });

  it("calls that started before the error was surfaced (the same turn) are not the model's answer to it", () => {
    const run = calls(["c1", "book", 0, "failed", "x", H1], ["c2", "book", 50, "ok", null, H2], ["c3", "refund", 60, "ok", null, H2]);
    expect(step(run, error("c1", "book", "x", 100))).toEqual({ step: "gave_up", next: null, calls: null, runState: "completed" });
  });

  it("the linked call of the tool is the retry that decides repeated or changed, not an earlier call of the tool answering another error", () => {
    const run = calls(
      ["c1", "book", 0, "failed", "x", H1],
      ["c2", "book", 10, "failed", "x", H2],
      ["c3", "book", 300, "failed", "x", H2, "c1"],
      ["c4", "book", 310, "failed", "x", H2, "c2"],
    );
    const e1 = error("c1", "book", "x", 100);
    const e2 = error("c2", "book", "x", 110);
    expect(step(run, e2, completed, [e1, e2])).toEqual({ step: "repeated", next: "c4", calls: null, runState: "completed" });
    expect(step(run, e1, completed, [e1, e2])).toEqual({ step: "changed_failed", next: "c3", calls: null, runState: "completed" });
  });

  it("the run's state after the error is its final state, or open", () => {
    expect(toldRunState({ ended: false, state: null })).toBe("open");
    expect(toldRunState({ ended: true, state: "completed" })).toBe("completed");
    expect(toldRunState({ ended: true, state: null })).toBe("completed");
    expect(toldRunState({ ended: true, state: "failed" })).toBe("failed");
  });

  it("orders calls by start, then call id and tool, whatever order they arrive in", () => {
    const run = calls(["b", "t", 5, "ok", null, null], ["a", "u", 5, "ok", null, null], ["a", "t", 5, "ok", null, null], ["z", "t", 1, "ok", null, null]);
    expect(orderCalls(run).map((c) => `${c.callId}/${c.tool}`)).toEqual(["z/t", "a/t", "a/u", "b/t"]);
  });
});
