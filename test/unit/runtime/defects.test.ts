import { execFile } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ingestRecordSchema, type IngestRecord } from "../../../lib/contracts";
import {
  CircuitBreaker,
  Exporter,
  ToolErrorMap,
  ToolFailure,
  UNNAMED_TOOL,
  VirtualTime,
  modelText,
  toAnthropicToolResult,
  type FetchLike,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolDefinition,
} from "../../../lib/runtime";
import { T0, expectValidRecords, harness } from "./helpers";

/** A loopback port with nothing listening on it (connections are refused at once). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const address = srv.address();
  await new Promise<void>((r) => srv.close(() => r()));
  return typeof address === "object" && address ? address.port : 0;
}

function runFixture(mode: "flush" | "shutdown", port: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = path.join(import.meta.dirname, "fixtures/unreachable-exit.ts");
  return new Promise((resolve) => {
    execFile(process.execPath, ["--import", "tsx", script, mode, String(port)], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe("defect 1: flush() and shutdown() settle with the server unreachable", () => {
  // A real child process: the defect is Node exiting while only unref'd timers are pending, which
  // simulated time cannot show.
  it.each(["shutdown", "flush"] as const)("%s() returns, code after the await runs, every record is accounted for", async (mode) => {
    const out = await runFixture(mode, await closedPort());
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const { stats } = JSON.parse(out.stdout.trim()) as { stats: { produced: number; sent: number; queued: number; droppedTotal: number; unconfirmed: number } };
    expect(stats.produced).toBe(3);
    expect(stats.queued).toBe(0);
    expect(stats.sent).toBe(0);
    expect(stats.droppedTotal + stats.unconfirmed).toBe(3);
  }, 60_000);

  it("holds the process only while someone awaits, and releases it when settled", async () => {
    const time = new VirtualTime(T0);
    let held = 0;
    let released = 0;
    const scheduler = {
      schedule: time.schedule.bind(time),
      keepAlive: () => {
        held++;
        return () => void released++;
      },
    };
    const fetch: FetchLike = async () => {
      throw new TypeError("fetch failed", { cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }) });
    };
    const exporter = new Exporter({ endpoint: "http://x", apiKey: "k", fetch, clock: time, scheduler, maxAttempts: 2 });
    exporter.record({ type: "run", id: "r", run_id: "r", agent: "a", started_at: T0, state: "completed" });
    expect(held).toBe(0);
    await exporter.flush();
    await exporter.shutdown({ timeoutMs: 100 });
    expect([held, released]).toEqual([2, 2]);
    expect(exporter.stats()).toMatchObject({ produced: 1, queued: 0, droppedTotal: 1, dropped: expect.objectContaining({ network_error: 1 }) });
  });

  it("flush({ timeoutMs }) resolves at its deadline and leaves the records queued for retry", async () => {
    const time = new VirtualTime(T0);
    const fetch: FetchLike = () => new Promise(() => {});
    const exporter = new Exporter({ endpoint: "http://x", apiKey: "k", fetch, clock: time, scheduler: time, requestTimeoutMs: 60_000 });
    exporter.record({ type: "run", id: "r", run_id: "r", agent: "a", started_at: T0, state: "completed" });
    await exporter.flush({ timeoutMs: 1000 });
    expect(time.now()).toBe(T0 + 1000);
    expect(exporter.stats().queued).toBe(1);
  });

  it("shutdown() gives up on a request that never answers and counts it as unconfirmed", async () => {
    const time = new VirtualTime(T0);
    const fetch: FetchLike = () => new Promise(() => {}); // ignores its signal too
    const exporter = new Exporter({ endpoint: "http://x", apiKey: "k", fetch, clock: time, scheduler: time, requestTimeoutMs: 60_000, compression: "none" });
    exporter.record({ type: "run", id: "r", run_id: "r", agent: "a", started_at: T0, state: "completed" });
    exporter.record({ type: "run", id: "s", run_id: "s", agent: "a", started_at: T0, state: "completed" });
    await exporter.shutdown({ timeoutMs: 500 });
    const s = exporter.stats();
    expect(s).toMatchObject({ produced: 2, sent: 0, queued: 0, unconfirmed: 2, droppedTotal: 0 });
  });
});

describe("defect 2: a blank or non-string tool name resolves to a not-found result", () => {
  const names: unknown[] = ["", "   ", 42, null, undefined, { name: "x" }];
  it.each(names.map((n) => [JSON.stringify(n) ?? "undefined", n]))("call({ tool: %s }) resolves, never rejects", async (_label, tool) => {
    const { runner, sink } = harness([{ name: "lookup", execute: () => "ok" }]);
    const run = runner.startRun();
    const r = await run.call({ callId: "toolu_1", tool } as unknown as ToolCallRequest);
    expect(r).toMatchObject({ status: "error", callId: "toolu_1", tool: UNNAMED_TOOL, attempts: 1, decision: "surfaced" });
    expect(r.status === "error" && r.error.errorClass).toBe("ToolNotFoundError");
    expect(r.status === "error" && r.told).toContain("the call named no tool");
    expectValidRecords(sink.records);
  });

  it("callAll keeps every result of the turn when one name is unusable", async () => {
    const { runner } = harness([{ name: "lookup", execute: () => "ok" }]);
    const results = await runner.startRun().callAll([
      { callId: "a", tool: "lookup" },
      { callId: "b", tool: "" },
      { callId: "c", tool: 7 as unknown as string },
    ]);
    expect(results.map((r) => [r.callId, r.status])).toEqual([["a", "ok"], ["b", "error"], ["c", "error"]]);
    expect(toAnthropicToolResult(results[1]!).is_error).toBe(true);
  });
});

class ExplodingMap extends ToolErrorMap {
  override classify(): never {
    throw new Error("the error map itself is broken");
  }
}

describe("defect 3: any outcome of a half-open probe is recorded", () => {
  it("an error map that throws during the probe re-opens the circuit instead of leaving it half-open", async () => {
    const time = new VirtualTime(T0);
    const breaker = new CircuitBreaker("supplier", { failureThreshold: 1, halfOpenAfterMs: 1000, clock: time });
    let healthy = false;
    const tool: ToolDefinition = {
      name: "book",
      breaker,
      errorMap: new ExplodingMap(),
      retry: { maxAttempts: 1 },
      execute: () => {
        if (!healthy) throw new Error("upstream down");
        return "booked";
      },
    };
    const { runner } = harness([tool], { clock: time, scheduler: time });
    const run = runner.startRun();
    await run.call({ tool: "book" }); // opens
    time.set(T0 + 1000);
    const probe = await run.call({ tool: "book" }); // the probe; the map throws classifying it
    expect(probe).toMatchObject({ status: "error", attempts: 1 });
    expect(breaker.state).toBe("open");
    healthy = true;
    time.set(T0 + 2000);
    expect(await run.call({ tool: "book" })).toMatchObject({ status: "ok", value: "booked" });
    expect(breaker.state).toBe("closed");
  });
});

describe("defect 4: an open circuit fails fast", () => {
  function setup(whenOpen?: "fail_fast" | "wait") {
    const time = new VirtualTime(T0);
    const breaker = new CircuitBreaker("supplier", { failureThreshold: 1, halfOpenAfterMs: 30_000, clock: time, ...(whenOpen ? { whenOpen } : {}) });
    let calls = 0;
    const tool: ToolDefinition = {
      name: "book",
      breaker,
      execute: () => {
        calls++;
        throw new ToolFailure("book", "upstream_unavailable", { transient: true });
      },
    };
    const h = harness([tool], { clock: time, scheduler: time, retry: { maxAttempts: 3, baseDelayMs: 100, maxRetryAfterMs: 60_000 } });
    return { ...h, time, breaker, calls: () => calls };
  }

  it("by default a call arriving while it is open ends at once with circuit_open, retryable, retry_after = time to half-open", async () => {
    const { runner, time, sink, calls } = setup();
    const run = runner.startRun();
    breakerTrip: {
      const first = await run.call({ callId: "c1", tool: "book" });
      expect(first).toMatchObject({ status: "error", attempts: 2 }); // attempt 2 met the open circuit
      break breakerTrip;
    }
    time.set(time.now() + 10_000);
    const before = time.now();
    const r = await run.call({ callId: "c2", tool: "book" });
    expect(time.now()).toBe(before); // no sleeping out the open period
    expect(calls()).toBe(1);
    expect(r).toMatchObject({ status: "error", attempts: 1, decision: "surfaced" });
    expect(r.status === "error" && [r.error.code, r.error.retryable]).toEqual(["circuit_open", true]);
    const span = sink.ofType("tool_call_span").at(-1)!;
    expect(span).toMatchObject({ call_id: "c2", code: "circuit_open", retryable: true, decision: "surfaced" });
    expect(span.retry_after_ms).toBeGreaterThan(0);
    expect(span.retry_after_ms).toBeLessThanOrEqual(30_000);
    expect(r.status === "error" && r.told).toMatch(/retryable: yes \(the same call may succeed later, not before \d+(\.\d)?s\)$/);
    expectValidRecords(sink.records);
  });

  it("whenOpen: 'wait' lets the loop's gates decide, so it may sleep until the circuit half-opens", async () => {
    const { runner, time } = setup("wait");
    const r = await runner.startRun().call({ tool: "book" });
    expect(r).toMatchObject({ status: "error", decision: "exhausted", attempts: 3 });
    expect(time.now()).toBeGreaterThanOrEqual(T0 + 30_000);
  });
});

describe("defect 5: hostile values and broken maps never make a call reject", () => {
  const hostile: [string, () => unknown][] = [
    ["a throwing message getter", () => Object.defineProperty(new Error("x"), "message", { get: () => { throw new Error("boom"); } })],
    ["a Proxy whose every trap throws", () => new Proxy({}, { get: () => { throw new Error("trap"); }, getPrototypeOf: () => { throw new Error("trap"); }, ownKeys: () => { throw new Error("trap"); } })],
    ["a throwing toString", () => ({ toString: () => { throw new Error("no"); }, toJSON: () => { throw new Error("no"); } })],
    ["a revoked Proxy", () => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; }],
  ];

  it.each(hostile)("classify() returns unmapped_failure for %s", (_label, make) => {
    const e = new ToolErrorMap([[TypeError, { kind: "failure", code: "x", transient: false }]], { statuses: { 500: { kind: "failure", code: "y", transient: false } } }).classify(make(), { tool: "t" });
    expect([e.code, e.errorClass, e.retryable]).toEqual(["unmapped_failure", "ToolFailure", false]);
  });

  it.each(hostile)("call() resolves when the tool throws %s", async (_label, make) => {
    const { runner, sink } = harness([{ name: "t", execute: () => { throw make(); } }]);
    const r = await runner.startRun().call({ tool: "t" });
    expect(r).toMatchObject({ status: "error", decision: "surfaced" });
    expectValidRecords(sink.records);
  });

  it("a throwing error map on attempt 2 still resolves, and the result names attempt 2", async () => {
    let n = 0;
    const tool: ToolDefinition = {
      name: "t",
      idempotent: true,
      errorMap: new ExplodingMap(),
      execute: () => {
        if (++n === 1) throw new ToolFailure("t", "upstream_unavailable", { transient: true });
        throw new Error("second failure");
      },
    };
    // The map is consulted only for the untyped second failure.
    const { runner, sink } = harness([tool], { retry: { maxAttempts: 3, baseDelayMs: 1 } });
    const r = await runner.startRun().call({ tool: "t" });
    expect(r).toMatchObject({ status: "error", attempts: 3 });
    const spans = sink.ofType("tool_call_span");
    expect(spans.map((s) => s.attempt)).toEqual([1, 2, 3]);
    expect(sink.ofType("tool_error")[0]).toMatchObject({ attempts: 3, code: "unmapped_failure" });
  });

  it("a throwing sink and listeners inside the fallback still leave the call resolved with the real attempt", async () => {
    let n = 0;
    const tool: ToolDefinition = {
      name: "t",
      execute: () => {
        if (++n === 1) throw new ToolFailure("t", "busy", { transient: true });
        return "late";
      },
      checkResult: () => {
        throw new Error("check crashed");
      },
    };
    const { runner } = harness([tool], { sink: { record: () => { throw new Error("sink down"); } } });
    runner.onGiveUp(() => {
      throw new Error("listener down");
    });
    const r = await runner.startRun().call({ tool: "t" });
    expect(r).toMatchObject({ status: "error", attempts: 2 });
    expect(r.status === "error" && r.error.code).toBe("result_rejected");
  });

  it("a result that cannot be serialised reaches the model as an error, never as [object Object]", () => {
    const base = { status: "ok" as const, runId: "r", callId: "c", tool: "t", attempts: 1 };
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(modelText({ ...base, value: cyclic })).toContain('{"a":1,"self":"[Circular]"}');
    expect(modelText({ ...base, value: { id: 12345678901234567890n } })).toContain('{"id":"12345678901234567890"}');
    const hostileValue: ToolCallResult = { ...base, value: { toJSON: () => { throw new Error("nope"); } } };
    const block = toAnthropicToolResult(hostileValue);
    expect(block.is_error).toBe(true);
    expect(block.content).toContain("error: result_unserialisable");
    expect(block.content).not.toContain("[object Object]");
  });
});

describe("defect 6: fields beyond the contract are clamped before export, and lost answers are not counted as dropped", () => {
  function exporterWith(fetch: FetchLike, extra: Partial<ConstructorParameters<typeof Exporter>[0]> = {}) {
    const time = new VirtualTime(T0);
    return new Exporter({ endpoint: "http://x", apiKey: "k", fetch, clock: time, scheduler: time, compression: "none", ...extra });
  }

  it("a 10,000-character tool name and a 300-character call id are clamped, kept distinct, and counted", async () => {
    const bodies: { records: IngestRecord[] }[] = [];
    const fetch: FetchLike = async (_u, init) => {
      bodies.push(JSON.parse(init.body as string) as { records: IngestRecord[] });
      return { status: 200, headers: { get: () => null }, text: async () => '{"accepted":2,"duplicates":0,"rejected":[]}' };
    };
    const exporter = exporterWith(fetch);
    const { runner } = harness([], { sink: exporter });
    const run = runner.startRun();
    await run.call({ callId: "c".repeat(300), tool: "t".repeat(10_000) });
    await run.call({ callId: `${"c".repeat(299)}d`, tool: "t".repeat(10_000) });
    await exporter.flush();
    const records = bodies.flatMap((b) => b.records);
    for (const r of records) expect(ingestRecordSchema.safeParse(r).success, JSON.stringify(r).slice(0, 300)).toBe(true);
    const spans = records.filter((r) => r.type === "tool_call_span");
    expect(spans[0]!.call_id).not.toBe(spans[1]!.call_id);
    expect(spans[0]!.call_id.length).toBeLessThanOrEqual(128);
    expect(spans[0]!.tool.length).toBeLessThanOrEqual(200);
    expect(exporter.stats().clamped).toBe(4); // two spans and two tool errors
  });

  it("records whose answer was lost are unconfirmed, not dropped; a later duplicate answer confirms them", async () => {
    const stored = new Set<string>();
    let mode: "reset" | "ok" = "reset";
    const fetch: FetchLike = async (_u, init) => {
      const { records } = JSON.parse(init.body as string) as { records: IngestRecord[] };
      let duplicates = 0;
      for (const r of records) (stored.has(r.id) ? duplicates++ : stored.add(r.id));
      if (mode === "reset") throw new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
      return { status: 200, headers: { get: () => null }, text: async () => JSON.stringify({ accepted: records.length, duplicates, rejected: [] }) };
    };
    const lost = exporterWith(fetch, { maxAttempts: 2 });
    lost.record({ type: "run", id: "r1", run_id: "r1", agent: "a", started_at: T0, state: "completed" });
    await lost.flush();
    expect(lost.stats()).toMatchObject({ produced: 1, sent: 0, droppedTotal: 0, unconfirmed: 1 });

    mode = "ok";
    const confirmed = exporterWith(fetch, { maxAttempts: 2 });
    confirmed.record({ type: "run", id: "r1", run_id: "r1", agent: "a", started_at: T0, state: "completed" });
    await confirmed.flush();
    expect(confirmed.stats()).toMatchObject({ produced: 1, sent: 1, duplicates: 1, unconfirmed: 0, droppedTotal: 0 });
  });
});
