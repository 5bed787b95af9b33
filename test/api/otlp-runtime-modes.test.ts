import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IngestRecord } from "@/lib/contracts";
import { Exporter, MemorySink, ToolFailure, ToolRefusal, ToolRunner } from "@/lib/runtime";
import { openProject, type ProjectServer } from "../helpers/project";

// The same runs recorded once by the real runtime, then exported twice through its real exporter:
// natively into one project and as OTLP spans into another. Every read answer must be the same.

let native: ProjectServer;
let otlp: ProjectServer;
beforeAll(async () => {
  native = await openProject();
  otlp = await openProject();
});
afterAll(async () => {
  await native?.stop();
  await otlp?.stop();
});

const RUNS_PER_RELEASE = 12;

/**
 * Records 12 runs per release (enough calls for drift): a call that fails twice then succeeds, a
 * refusal, a card decline that 2.0.0 calls transient (retried, exhausted) and 2.1.0 does not
 * (surfaced at once); the first run of each release fails the run on its final error.
 */
async function recordRuns(): Promise<IngestRecord[]> {
  const memory = new MemorySink();
  for (const release of ["2.0.0", "2.1.0"]) {
    for (let i = 0; i < RUNS_PER_RELEASE; i++) {
      const policy = i === 0 ? "fail_run" : "surface_to_model";
      let rateTries = 0;
      const runner = new ToolRunner({
        agent: "modes-agent",
        agentVersion: release,
        release,
        onToolError: policy,
        sink: memory,
        retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
        tools: [
          {
            name: "fetch_rates",
            execute: () => {
              rateTries++;
              if (rateTries <= 2) throw new ToolFailure("fetch_rates", "rates_unavailable", { transient: true, message: "rates service 503" });
              return { eur: 1.08 };
            },
          },
          {
            name: "charge_card",
            execute: () => {
              throw new ToolFailure("charge_card", "card_declined", { transient: release === "2.0.0", message: "issuer declined" });
            },
          },
          {
            name: "cancel_order",
            execute: () => {
              throw new ToolRefusal("cancel_order", "order_shipped", "the order has already shipped");
            },
          },
        ],
      });
      const run = runner.startRun({ runId: `modes-${release}-${i}` });
      await run.callAll([
        { callId: `rates-${release}-${i}`, tool: "fetch_rates", args: {} },
        { callId: `cancel-${release}-${i}`, tool: "cancel_order", args: {} },
      ]);
      await run.callAll([{ callId: `charge-${release}-${i}`, tool: "charge_card", args: {} }]);
      run.end();
      await run.drain();
    }
  }
  return memory.records;
}

async function exportInto(server: ProjectServer, format: "native" | "otlp", records: readonly IngestRecord[]) {
  const exporter = new Exporter({
    endpoint: server.url,
    apiKey: server.key,
    format,
    resource: { service: "modes-agent", environment: "test" },
    flushIntervalMs: 20,
  });
  for (const r of records) exporter.record(r);
  await exporter.shutdown({ timeoutMs: 10_000 });
  return exporter.stats();
}

/** An answer without the fields that name the project asked about or when it was computed. */
async function answer(server: ProjectServer, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(server.at(path));
  expect(res.status).toBe(200);
  const { project: _project, computedAt: _computedAt, ...rest } = (await res.json()) as Record<string, unknown>;
  return rest;
}

const count = async (server: ProjectServer, table: string) =>
  (await server.store.get<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE project_id = ?`, [server.project]))!.n;

describe("the runtime's OTLP mode and native mode", () => {
  it("store the same runs, attempts and final errors, and answer Tools, Codes, Runs and Drift identically", async () => {
    const records = await recordRuns();
    const byType = (t: IngestRecord["type"]) => records.filter((r) => r.type === t).length;
    // Per run: fetch_rates 3 attempts, cancel_order 1, charge_card 3 (2.0.0, transient) or 1 (2.1.0);
    // final errors: the refusal and the decline.
    expect([byType("run"), byType("tool_call_span"), byType("tool_error")]).toEqual([24, 12 * 7 + 12 * 5, 48]);

    const [n, o] = [await exportInto(native, "native", records), await exportInto(otlp, "otlp", records)];
    expect([n.sent, n.droppedTotal, o.sent, o.droppedTotal]).toEqual([records.length, 0, records.length, 0]);

    for (const table of ["runs", "tool_call_spans", "tool_errors"]) {
      expect([table, await count(otlp, table)]).toEqual([table, await count(native, table)]);
    }
    expect(await count(otlp, "tool_errors")).toBe(48);

    const final = (s: ProjectServer) =>
      s.store.all("SELECT run_id, call_id, tool, code, error_class, retryable, attempts, decision, told, release FROM tool_errors WHERE project_id = ? ORDER BY run_id, call_id", [s.project]);
    expect(await final(otlp)).toEqual(await final(native));

    await native.driftFolded();
    await otlp.driftFolded();
    for (const path of ["/api/v1/tools", "/api/v1/codes", "/api/v1/runs?limit=100", "/api/v1/drift", "/api/v1/drift/summary"]) {
      expect([path, await answer(otlp, path)]).toEqual([path, await answer(native, path)]);
    }

    const tools = (await answer(otlp, "/api/v1/tools")) as { tools: { tool: string; calls: number; attempts: number; callsNotOk: number }[] };
    expect(tools.tools.map((t) => [t.tool, t.calls, t.attempts, t.callsNotOk]).sort()).toEqual([
      ["cancel_order", 24, 24, 24],
      ["charge_card", 24, 48, 24],
      ["fetch_rates", 24, 72, 0],
    ]);
    // The decline's change of retryability is found from the final errors of either mode alike.
    const drift = (await answer(otlp, "/api/v1/drift")) as { findings: { kind: string; tool: string; code: string; fromRelease: string; toRelease: string; beforeCalls: number; afterCalls: number; changes: string[] }[] };
    expect(drift.findings.map((f) => [f.kind, f.tool, f.code, f.fromRelease, f.toRelease, f.beforeCalls, f.afterCalls, f.changes])).toEqual([
      ["repurposed", "charge_card", "card_declined", "2.0.0", "2.1.0", 12, 12, ["retryable", "decision"]],
    ]);
  });
});
