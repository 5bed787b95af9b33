import { describe, expect, it } from "vitest";
import { ToolFailure, type ToolDefinition } from "../../../lib/runtime";
import { T0, expectValidRecords, harness, scripted } from "./helpers";

/** A body that runs until its signal aborts, then rejects with the reason, like a fetch would. */
function untilAborted(name: string): ToolDefinition & { sawAbort: boolean } {
  const tool = {
    name,
    sawAbort: false,
    execute: (_args: unknown, { signal }: { signal: AbortSignal }) =>
      new Promise<never>((_resolve, reject) => {
        signal.addEventListener("abort", () => ((tool.sawAbort = true), reject(signal.reason)), { once: true });
      }),
  };
  return tool;
}

describe("RunSession.call(request, { signal }): cancelling one call", () => {
  it("aborts the attempt in flight and ends the call cancelled; the run and its other calls go on", async () => {
    const slow = untilAborted("slow");
    const { runner, sink, time } = harness([slow, { name: "quick", execute: () => "done" }]);
    const run = runner.startRun();
    const controller = new AbortController();
    const pending = run.call({ callId: "c1", tool: "slow" }, { signal: controller.signal });
    controller.abort();
    const r = await pending;
    expect(r).toEqual({
      status: "cancelled",
      runId: "run_1",
      callId: "c1",
      tool: "slow",
      attempts: 1,
      decision: "cancelled",
      told: "error: cancelled: the call was cancelled by the caller",
    });
    expect(slow.sawAbort).toBe(true);
    expect(run.state).toBe("running");
    expect(await run.call({ callId: "c2", tool: "quick" })).toMatchObject({ status: "ok", value: "done" });
    run.end();
    expect(sink.ofType("tool_call_span").map((s) => [s.call_id, s.outcome, s.decision ?? null, s.message ?? null, s.abandoned])).toEqual([
      ["c1", "cancelled", "cancelled", "the call was cancelled by the caller", false],
      ["c2", "ok", null, null, false],
    ]);
    expect(sink.ofType("tool_error")).toHaveLength(0); // cancellation is not in the taxonomy
    expect(sink.ofType("run")[0]).toMatchObject({ state: "completed" });
    expect(time.now()).toBe(T0);
    expectValidRecords(sink.records);
  });

  it("a signal already aborted answers without running the tool; a string reason is what the model is told", async () => {
    const t = scripted("book", ["booked"]);
    const { runner, sink } = harness([t]);
    const run = runner.startRun();
    const r = await run.call({ callId: "c1", tool: "book" }, { signal: AbortSignal.abort("the user closed the chat") });
    expect(r).toMatchObject({ status: "cancelled", attempts: 0, told: "error: cancelled: the user closed the chat" });
    expect(t.calls).toBe(0);
    expect(sink.records).toHaveLength(0); // nothing ran, so no span
    expect(run.state).toBe("running");
  });

  it("cuts a backoff short: no second attempt, the clock does not move", async () => {
    const t = scripted("book", [new ToolFailure("book", "busy", { transient: true, retryAfterMs: 30_000 }), "booked"]);
    const { runner, sink, time } = harness([t]);
    const controller = new AbortController();
    runner.onRetry(() => controller.abort("stop"));
    const run = runner.startRun();
    const r = await run.call({ callId: "c1", tool: "book" }, { signal: controller.signal });
    expect(r).toMatchObject({ status: "cancelled", attempts: 1, told: "error: cancelled: stop" });
    expect([t.calls, time.now(), run.state]).toEqual([1, T0, "running"]);
    expect(sink.ofType("tool_call_span").map((s) => [s.attempt, s.outcome, s.decision, s.backoff_ms])).toEqual([[1, "failed", "retried", 30_000]]);
  });

  it("callAll passes the signal to every call of the turn; the run still ends as its caller says", async () => {
    const a = untilAborted("a");
    const b = untilAborted("b");
    const { runner, sink } = harness([a, b]);
    const run = runner.startRun();
    const controller = new AbortController();
    const pending = run.callAll([{ callId: "1", tool: "a" }, { callId: "2", tool: "b" }], { signal: controller.signal });
    controller.abort();
    expect((await pending).map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect([a.sawAbort, b.sawAbort]).toEqual([true, true]);
    expect(run.end()).toMatchObject({ state: "completed" });
    expectValidRecords(sink.records);
  });

  it("the run's own cancellation still wins and names its reason", async () => {
    const slow = untilAborted("slow");
    const { runner } = harness([slow]);
    const runController = new AbortController();
    const run = runner.startRun({ signal: runController.signal });
    const pending = run.call({ tool: "slow" }, { signal: new AbortController().signal });
    runController.abort("shutting down");
    expect(await pending).toMatchObject({ status: "cancelled", told: "error: cancelled: shutting down" });
    expect(run.state).toBe("cancelled");
  });
});
