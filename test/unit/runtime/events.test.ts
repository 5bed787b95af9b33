import { describe, expect, it } from "vitest";
import { CircuitBreaker, EventEmitter, ToolFailure, VirtualTime, type ToolDefinition } from "../../../lib/runtime";
import { T0, harness, scripted } from "./helpers";

const failure = (code: string) => new ToolFailure("book", code, { transient: true });

describe("EventEmitter", () => {
  it("isolates throwing listeners: the others still run, each throw is counted and reported with the event name", () => {
    const reported: [string, string][] = [];
    const e = new EventEmitter<number>("onThing", (error, name) => reported.push([name, (error as Error).message]));
    const seen: number[] = [];
    e.addListener(() => {
      throw new Error("first bug");
    });
    e.addListener((v) => seen.push(v));
    expect(() => e.emit(1)).not.toThrow();
    expect(() => e.emit(2)).not.toThrow();
    expect(seen).toEqual([1, 2]);
    expect(e.listenerErrors).toBe(2);
    expect(reported).toEqual([["onThing", "first bug"], ["onThing", "first bug"]]);
  });

  it("a throwing error handler is swallowed too", () => {
    const e = new EventEmitter<number>("onThing", () => {
      throw new Error("handler bug");
    });
    e.addListener(() => {
      throw new Error("listener bug");
    });
    expect(() => e.emit(1)).not.toThrow();
    expect(e.listenerErrors).toBe(1);
  });

  it("dispose() unsubscribes; a listener disposed or added during delivery is skipped for that event", () => {
    const e = new EventEmitter<string>();
    const log: string[] = [];
    let second = { dispose: () => {} };
    const first = e.addListener((v) => {
      log.push(`a:${v}`);
      second.dispose();
      e.addListener((w) => log.push(`c:${w}`));
    });
    second = e.addListener((v) => log.push(`b:${v}`));
    e.emit("1");
    first.dispose();
    e.emit("2");
    expect(log).toEqual(["a:1", "c:2"]);
    expect(e.size).toBe(1);
  });
});

describe("CircuitBreaker events", () => {
  it("onBreak (with reason, failures and error), onHalfOpen, onReset, after onStateChange, in order", () => {
    const time = new VirtualTime(T0, { auto: false });
    const b = new CircuitBreaker("supplier-api", { failureThreshold: 2, halfOpenAfterMs: 10_000, clock: time });
    const log: unknown[] = [];
    b.onStateChange((c) => log.push(["state", c.from, c.to]));
    b.onBreak((e) => log.push(["break", e.upstream, e.from, e.reason, e.failures, e.error?.code ?? null]));
    b.onHalfOpen((e) => log.push(["half_open", e.upstream]));
    b.onReset((e) => log.push(["reset", e.upstream, e.from]));

    b.record("failure", failure("first"));
    b.record("failure", failure("second"));
    time.advance(10_000);
    expect(b.admit("book")).toBeUndefined(); // the probe
    b.record("failure", failure("probe"));
    time.advance(10_000);
    expect(b.admit("book")).toBeUndefined();
    b.record("success");
    b.record("success"); // already closed: no event

    expect(log).toEqual([
      ["state", "closed", "open"],
      ["break", "supplier-api", "closed", "failure_threshold", 2, "second"],
      ["state", "open", "half_open"],
      ["half_open", "supplier-api"],
      ["state", "half_open", "open"],
      ["break", "supplier-api", "half_open", "probe_failed", 1, "probe"],
      ["state", "open", "half_open"],
      ["half_open", "supplier-api"],
      ["state", "half_open", "closed"],
      ["reset", "supplier-api", "half_open"],
    ]);
  });

  it("subscriptions are disposable", () => {
    const b = new CircuitBreaker("s", { failureThreshold: 1 });
    let breaks = 0;
    const sub = b.onBreak(() => breaks++);
    b.record("failure");
    sub.dispose();
    b.record("success");
    b.record("failure");
    expect(breaks).toBe(1);
  });

  it("throwing listeners never change the breaker; they are counted and reported", () => {
    const time = new VirtualTime(T0, { auto: false });
    const reported: string[] = [];
    const b = new CircuitBreaker("s", { failureThreshold: 1, halfOpenAfterMs: 1000, clock: time, onListenerError: (_e, name) => reported.push(name) });
    const boom = () => {
      throw new Error("listener bug");
    };
    b.onStateChange(boom);
    b.onBreak(boom);
    b.onHalfOpen(boom);
    b.onReset(boom);
    expect(() => b.record("failure")).not.toThrow();
    expect(b.state).toBe("open");
    expect(b.admit("t")?.retryAfterMs).toBe(1000);
    time.advance(1000);
    expect(b.admit("t")).toBeUndefined();
    expect(b.state).toBe("half_open");
    b.record("success");
    expect(b.state).toBe("closed");
    expect(reported).toEqual(["onStateChange", "onBreak", "onStateChange", "onHalfOpen", "onStateChange", "onReset"]);
    expect(b.listenerErrors).toBe(6);
  });

  it("inside the run loop, onBreak receives the tool's failure and a throwing listener does not change the call", async () => {
    const time = new VirtualTime(T0);
    const breaker = new CircuitBreaker("supplier-api", { failureThreshold: 1, halfOpenAfterMs: 120_000, clock: time });
    const broke: string[] = [];
    breaker.onBreak((e) => broke.push(`${e.reason}:${e.error?.code}`));
    breaker.onBreak(() => {
      throw new Error("pager is down");
    });
    const down: ToolDefinition = { name: "book", breaker, retry: { maxAttempts: 2 }, execute: () => Promise.reject(failure("upstream_unavailable")) };
    const { runner, sink } = harness([down], { clock: time, scheduler: time });
    const r = await runner.startRun().call({ tool: "book" });
    expect(r).toMatchObject({ status: "error", decision: "surfaced", attempts: 2 });
    expect(r.status === "error" && r.error.code).toBe("circuit_open");
    expect(broke).toEqual(["failure_threshold:upstream_unavailable"]);
    expect(breaker.listenerErrors).toBe(1);
    expect(sink.ofType("tool_call_span").map((s) => s.code)).toEqual(["upstream_unavailable", "circuit_open"]);
  });
});

describe("run loop listeners", () => {
  it("every runner event isolates a throwing listener, reports it by name and counts it", async () => {
    const reported: string[] = [];
    const t = scripted("book", [failure("upstream_unavailable"), "ok"]);
    const bad = scripted("bad", [new ToolFailure("bad", "upstream_rejected")]);
    const { runner } = harness([t, bad], { onListenerError: (_e, name) => reported.push(name) });
    const boom = () => {
      throw new Error("listener bug");
    };
    runner.onRetry(boom);
    runner.onGiveUp(boom);
    runner.onSuccess(boom);
    runner.onCancel(boom);
    runner.onRunEnd(boom);
    const controller = new AbortController();
    const run = runner.startRun({ signal: controller.signal });
    await expect(run.call({ tool: "book" })).resolves.toMatchObject({ status: "ok", attempts: 2 });
    await expect(run.call({ tool: "bad" })).resolves.toMatchObject({ status: "error", decision: "surfaced" });
    controller.abort();
    await expect(run.call({ tool: "book" })).resolves.toMatchObject({ status: "cancelled" });
    expect(() => run.end()).not.toThrow();
    expect(run.state).toBe("cancelled");
    // The cancelled call ends the run first (onRunEnd), then reports itself (onCancel).
    expect(reported).toEqual(["onRetry", "onSuccess", "onGiveUp", "onRunEnd", "onCancel"]);
    expect(runner.listenerErrors).toBe(5);
  });
});
