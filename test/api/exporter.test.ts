import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Exporter, fanOut, MemorySink, ToolFailure, ToolRefusal, ToolRunner, type ExporterStats } from "@/lib/runtime";
import type { IngestRecord } from "@/lib/contracts";
import { SPANS } from "../helpers/spans-read";
import { openProject, type ProjectServer } from "../helpers/project";

// A proxy in front of the real server that can play dead, lose answers or ask to slow down, so the
// exporter meets those conditions on the real wire.
type Mode = "forward" | "down" | "lose_answer" | "throttle";
let server: ProjectServer;
let proxy: Server;
let proxyUrl: string;
let modes: Mode[] = [];
let seen: { at: number; status: number }[] = [];

beforeAll(async () => {
  server = await openProject();
  proxy = createServer(async (req, res) => {
    const mode = modes.shift() ?? "forward";
    if (mode === "down") return req.socket.destroy();
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (mode === "throttle") {
      seen.push({ at: performance.now(), status: 429 });
      res.writeHead(429, { "retry-after": "1", "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { code: "rate_limited", message: "slow down" } }));
    }
    const upstream = await fetch(`${server.url}${req.url}`, {
      method: req.method,
      headers: {
        authorization: req.headers.authorization ?? "",
        "content-type": req.headers["content-type"] ?? "",
        "content-encoding": String(req.headers["content-encoding"] ?? "identity"),
      },
      body: Buffer.concat(chunks),
    });
    const body = await upstream.text();
    seen.push({ at: performance.now(), status: upstream.status });
    if (mode === "lose_answer") return req.socket.destroy();
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(body);
  });
  await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
  const address = proxy.address();
  proxyUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await server?.stop();
});

/** Runs `sql` with this file's project as its first parameter (the database is shared by every test file). */
const rows = <Row = Record<string, unknown>>(sql: string, ...args: unknown[]) => server.store.all<Row>(sql, [server.project, ...args]);
const invariant = (s: ExporterStats) => expect(s.produced).toBe(s.sent + s.queued + s.droppedTotal);

function exporter(overrides: Partial<ConstructorParameters<typeof Exporter>[0]> = {}) {
  return new Exporter({
    endpoint: proxyUrl,
    apiKey: server.key,
    resource: { service: "exporter-test", release: "9.9.9" },
    baseBackoffMs: 20,
    maxBackoffMs: 50,
    flushIntervalMs: 20,
    ...overrides,
  });
}

async function runAgent(sink: Exporter, memory: MemorySink, runSuffix: string) {
  let calls = 0;
  const runner = new ToolRunner({
    agent: "exporter-test",
    sink: fanOut(sink, memory),
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    tools: [
      {
        name: "flaky_search",
        execute: () => {
          calls++;
          if (calls === 1) throw new ToolFailure("flaky_search", "upstream_unavailable", { transient: true });
          return { hits: 3 };
        },
      },
      {
        name: "cancel_booking",
        execute: () => {
          throw new ToolRefusal("cancel_booking", "booking_not_cancellable", "this fare is non-refundable");
        },
      },
    ],
  });
  const run = runner.startRun({ runId: `run-${runSuffix}` });
  await run.callAll([
    { callId: `call-a-${runSuffix}`, tool: "flaky_search", args: {} },
    { callId: `call-b-${runSuffix}`, tool: "cancel_booking", args: {} },
  ]);
  run.end();
  await run.drain();
}

describe("the runtime exporter against a real Faultline", () => {
  it("delivers what the run loop recorded, exactly", async () => {
    modes = [];
    const ex = exporter();
    const memory = new MemorySink();
    await runAgent(ex, memory, "normal");
    await ex.shutdown({ timeoutMs: 5000 });
    const stats = ex.stats();
    invariant(stats);
    expect(stats.sent).toBe(memory.records.length);
    expect(stats.droppedTotal).toBe(0);
    const spans = memory.records.filter((r): r is Extract<IngestRecord, { type: "tool_call_span" }> => r.type === "tool_call_span");
    expect(spans.map((s) => [s.tool, s.attempt, s.outcome, s.code ?? null])).toEqual(
      expect.arrayContaining([
        ["flaky_search", 1, "failed", "upstream_unavailable"],
        ["flaky_search", 2, "ok", null],
        ["cancel_booking", 1, "declined", "booking_not_cancellable"],
      ]),
    );
    expect(await rows(`SELECT tool, attempt, outcome, code, release, service FROM ${SPANS} WHERE project_id = ? AND run_id = 'run-normal' ORDER BY tool, attempt`)).toEqual([
      { tool: "cancel_booking", attempt: 1, outcome: "declined", code: "booking_not_cancellable", release: "9.9.9", service: "exporter-test" },
      { tool: "flaky_search", attempt: 1, outcome: "failed", code: "upstream_unavailable", release: "9.9.9", service: "exporter-test" },
      { tool: "flaky_search", attempt: 2, outcome: "ok", code: null, release: "9.9.9", service: "exporter-test" },
    ]);
    expect(await rows("SELECT tool, code, decision, told FROM tool_errors WHERE project_id = ? AND run_id = 'run-normal'")).toEqual([
      { tool: "cancel_booking", code: "booking_not_cancellable", decision: "delivered", told: (memory.records.find((r) => r.type === "tool_error") as { told: string }).told },
    ]);
    expect(await rows("SELECT state FROM runs WHERE project_id = ? AND run_id = 'run-normal'")).toEqual([{ state: "completed" }]);
  });

  it("survives the server being down, then a lost answer, without losing or duplicating a record", async () => {
    modes = ["down", "down", "lose_answer"];
    seen = [];
    const ex = exporter({ maxBatchSize: 1000 });
    const memory = new MemorySink();
    await runAgent(ex, memory, "outage");
    await ex.shutdown({ timeoutMs: 10_000 });
    const stats = ex.stats();
    invariant(stats);
    expect(stats.droppedTotal).toBe(0);
    expect(stats.sent).toBe(memory.records.length);
    expect(stats.retries).toBeGreaterThanOrEqual(3);
    // The lost answer's batch was stored; its retry came back as duplicates, stored once.
    expect(stats.duplicates).toBeGreaterThan(0);
    const stored = await rows<{ n: number }>("SELECT count(*) AS n FROM tool_call_spans WHERE project_id = ? AND run_id = 'run-outage'");
    expect(stored[0]?.n).toBe(memory.records.filter((r) => r.type === "tool_call_span").length);
  });

  it("waits for Retry-After on a 429 before sending again", async () => {
    modes = ["throttle"];
    seen = [];
    const ex = exporter();
    const memory = new MemorySink();
    await runAgent(ex, memory, "throttled");
    await ex.shutdown({ timeoutMs: 10_000 });
    expect(seen[0]?.status).toBe(429);
    expect(seen[1]?.status).toBe(200);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(990);
    expect(ex.stats().sent).toBe(memory.records.length);
  });

  it("treats the records a 207 rejected as final and does not resend them", async () => {
    modes = [];
    seen = [];
    const ex = exporter({ maxBatchSize: 10 });
    const good: IngestRecord = { type: "run", id: "r-207", run_id: "run-207", agent: "a", started_at: Date.now() - 1000, state: "running" };
    ex.record(good);
    ex.record({ ...good, id: "r-207-bad", run_id: "run-207-bad", started_at: 5 } as IngestRecord);
    await ex.shutdown({ timeoutMs: 5000 });
    const stats = ex.stats();
    invariant(stats);
    expect(seen.map((s) => s.status)).toEqual([207]);
    expect(stats.sent).toBe(1);
    expect(stats.dropped.rejected).toBe(1);
    expect(await rows("SELECT run_id FROM runs WHERE project_id = ? AND run_id LIKE 'run-207%'")).toEqual([{ run_id: "run-207" }]);
  });
});
