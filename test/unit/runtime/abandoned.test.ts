import { describe, expect, it } from "vitest";
import { CircuitBreaker, ToolFailure, type ToolContext, type ToolDefinition } from "../../../lib/runtime";
import { T0, expectValidRecords, harness } from "./helpers";

const abortError = () => new DOMException("aborted", "AbortError");

/** A body that stops as soon as its signal aborts. */
const honours = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  ...extra,
  execute: (_args: unknown, ctx: ToolContext) => new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => reject(abortError()))),
});

/** A body that never looks at its signal and never settles. */
const ignores = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({ name, ...extra, execute: () => new Promise(() => {}) });

const abandonedOf = (sink: ReturnType<typeof harness>["sink"]) =>
  sink.ofType("tool_call_span").map((s) => ({ attempt: s.attempt, outcome: s.outcome, ended_at: s.ended_at, abandoned: s.abandoned }));

describe("abandoned attempts", () => {
  it("tool timeout, body honours the abort: abandoned false, recorded without waiting for the grace period", async () => {
    const { runner, sink, time } = harness([honours("search", { timeoutMs: 1000 })]);
    const run = runner.startRun();
    const r = await run.call({ tool: "search" });
    expect(r).toMatchObject({ status: "error", decision: "surfaced", attempts: 1 });
    expect(abandonedOf(sink)).toEqual([{ attempt: 1, outcome: "timed_out", ended_at: T0 + 1000, abandoned: false }]);
    await run.drain();
    expect(time.now()).toBe(T0 + 1000);
    expect(time.pending).toBe(0); // the grace timer was cancelled
    expect(sink.ofType("tool_call_span")).toHaveLength(1);
    expectValidRecords(sink.records);
  });

  it("tool timeout, body ignores the abort: the loop moves on at once; the span says abandoned after the grace period", async () => {
    const { runner, sink, time } = harness([ignores("search", { timeoutMs: 1000 })]);
    const run = runner.startRun();
    const r = await run.call({ tool: "search" });
    // The decision did not wait: the call is answered at the timeout, the span is still held back.
    expect(r).toMatchObject({ status: "error", decision: "surfaced", attempts: 1 });
    expect(time.now()).toBe(T0 + 1000);
    expect(sink.ofType("tool_error")).toHaveLength(1);
    expect(sink.ofType("tool_call_span")).toHaveLength(0);
    await run.drain();
    expect(time.now()).toBe(T0 + 1100);
    expect(abandonedOf(sink)).toEqual([{ attempt: 1, outcome: "timed_out", ended_at: T0 + 1000, abandoned: true }]);
    expect(sink.ofType("tool_call_span")[0]).toMatchObject({ code: "tool_timed_out", decision: "surfaced" });
    expectValidRecords(sink.records);
  });

  it("abandonGraceMs sets the wait; a body settling inside it is not abandoned and the span waits only that long", async () => {
    let release: (() => void) | undefined;
    const late: ToolDefinition = { name: "search", timeoutMs: 1000, execute: () => new Promise<string>((resolve) => (release = () => resolve("late"))) };
    const { runner, sink, time } = harness([late], { abandonGraceMs: 250 });
    time.schedule(() => release?.(), 1040);
    const run = runner.startRun();
    await run.call({ tool: "search" });
    await run.drain();
    expect(time.now()).toBe(T0 + 1040);
    expect(abandonedOf(sink)).toEqual([{ attempt: 1, outcome: "timed_out", ended_at: T0 + 1000, abandoned: false }]);
  });

  it("a body settling after the grace period is abandoned, and its span is still recorded exactly once", async () => {
    let release: (() => void) | undefined;
    const late: ToolDefinition = { name: "search", timeoutMs: 1000, execute: () => new Promise<string>((resolve) => (release = () => resolve("late"))) };
    const { runner, sink, time } = harness([late], { abandonGraceMs: 250 });
    time.schedule(() => release?.(), 5000);
    const run = runner.startRun();
    await run.call({ tool: "search" });
    await run.drain();
    expect(time.now()).toBe(T0 + 1250);
    await new Promise<void>((resolve) => time.schedule(resolve, 10_000)); // well past the late settle
    expect(abandonedOf(sink)).toEqual([{ attempt: 1, outcome: "timed_out", ended_at: T0 + 1000, abandoned: true }]);
  });

  it("run cancellation: a cooperative body is not abandoned, one that ignores the signal is", async () => {
    const controller = new AbortController();
    const { runner, sink } = harness([honours("fast_stop"), ignores("stuck")]);
    const run = runner.startRun({ signal: controller.signal });
    const pending = run.callAll([{ callId: "c1", tool: "fast_stop" }, { callId: "c2", tool: "stuck" }]);
    controller.abort();
    const results = await pending;
    expect(results.map((r) => r.status)).toEqual(["cancelled", "cancelled"]);
    await run.drain();
    const spans = sink.ofType("tool_call_span").map((s) => [s.call_id, s.outcome, s.decision, s.abandoned]);
    expect(spans).toEqual([
      ["c1", "cancelled", "cancelled", false],
      ["c2", "cancelled", "cancelled", true],
    ]);
    expect(sink.ofType("run")[0]).toMatchObject({ state: "cancelled" });
    expectValidRecords(sink.records);
  });

  it("run deadline mid-attempt: a body that ignores the signal is abandoned", async () => {
    const { runner, sink, time } = harness([ignores("stuck")]);
    const run = runner.startRun({ timeoutMs: 3000 });
    const r = await run.call({ tool: "stuck" });
    expect(r.status).toBe("cancelled");
    await run.drain();
    expect(time.now()).toBe(T0 + 3100);
    expect(abandonedOf(sink)).toEqual([{ attempt: 1, outcome: "cancelled", ended_at: T0 + 3000, abandoned: true }]);
  });

  it("attempts whose body settled say abandoned false; attempts that never ran a body carry no flag", async () => {
    const breaker = new CircuitBreaker("supplier", { failureThreshold: 1, halfOpenAfterMs: 60_000 });
    let n = 0;
    const flaky: ToolDefinition = {
      name: "book",
      breaker,
      retry: { maxAttempts: 2 },
      execute: () => {
        if (++n === 1) throw new ToolFailure("book", "upstream_unavailable", { transient: true });
        return "ok";
      },
    };
    const { runner, sink } = harness([flaky, { name: "plain", execute: () => "fine" }]);
    const run = runner.startRun();
    await run.call({ tool: "book" }); // fails, opens the breaker; the retry meets the open circuit
    await run.call({ tool: "plain" });
    await run.call({ tool: "nope" });
    await run.drain();
    expect(sink.ofType("tool_call_span").map((s) => [s.tool, s.code ?? null, "abandoned" in s ? s.abandoned : "absent"])).toEqual([
      ["book", "upstream_unavailable", false],
      ["book", "circuit_open", "absent"],
      ["plain", null, false],
      ["nope", "tool_not_found", "absent"],
    ]);
    expectValidRecords(sink.records);
  });

  it("drain() resolves at once when nothing is held back", async () => {
    const { runner } = harness([{ name: "plain", execute: () => "fine" }]);
    const run = runner.startRun();
    await run.call({ tool: "plain" });
    let drained = false;
    void run.drain().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(true);
  });
});
