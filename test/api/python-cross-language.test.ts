// One contract, two languages: the scripted agent of test/vectors/scripted-run.json runs through the
// TypeScript runtime and through the Python package (sdk/python, in its virtual environment), each
// with its own exporter, against the real server. What the read API returns for the two runs is
// identical once ids, times and the sending SDK's name are set aside.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Exporter, ToolRunner, type IdSource } from "@/lib/runtime";
import { A } from "@/lib/contracts/runs";
import { SCRIPTED_RUN, scriptedTools } from "../vectors/cases";
import { openProject, type ProjectServer } from "../helpers/project";
// @ts-expect-error -- a plain ESM script without types (scripts/python-env.mjs)
import { ENVS, ensurePythonEnv, pythonOf } from "../../scripts/python-env.mjs";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const prefixed = (prefix: string): IdSource => {
  let n = 0;
  return (kind) => `${prefix}${kind}_${++n}`;
};

async function typescriptRun(now: number): Promise<string> {
  const tools = scriptedTools();
  const exporter = new Exporter({ endpoint: server.url, apiKey: server.key, resource: { service: "cross-language" } });
  const runner = new ToolRunner({
    agent: SCRIPTED_RUN.agent, release: SCRIPTED_RUN.release, environment: SCRIPTED_RUN.environment, tools, sink: exporter,
    ids: prefixed("ts-"), clock: { now: () => now }, random: () => SCRIPTED_RUN.random, sleep: async () => {},
  });
  const run = runner.startRun();
  for (const turn of SCRIPTED_RUN.turns) {
    run.modelTurn(turn.map((c) => `ts-${c.call_id}`));
    for (const c of turn) if (!("unanswered" in c)) await run.call({ callId: `ts-${c.call_id}`, tool: c.tool, args: c.args });
  }
  run.end("completed");
  await exporter.shutdown({ timeoutMs: 20_000 });
  expect(exporter.stats().sent).toBe(exporter.stats().produced);
  return run.runId;
}

function pythonRun(now: number, prefix = "py-", mode: "native" | "otel" = "native"): string {
  const problem = ensurePythonEnv(ENVS.main) as string | undefined;
  expect(problem, "the Python SDK's virtual environment").toBeUndefined();
  const script = path.join(import.meta.dirname, "../../sdk/python/tests/cross_language_agent.py");
  const out = spawnSync(pythonOf(ENVS.main) as string, [script, server.url, server.key, String(now), prefix, mode], { encoding: "utf8" });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.trim();
}

const ID_OR_TIME = /(^|_)(id|ids)$|Id$|Ids$|At$|^at$|Ms$|^(started|ended|occurred|first|last)|^(sdkName|sdkVersion|sdk)$/;

/** The answer with ids, times, durations and the sending SDK taken out; call ids lose their language prefix. */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value === "string") return value.replace(/^(ts|py|pn|po)-/, "");
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !ID_OR_TIME.test(k)).map(([k, v]) => [k, comparable(v)]));
}

type Timeline = { strings: string[]; calls: { attempts: unknown[][] }[]; toldSteps: unknown[] };

/**
 * {@link comparable}, for a native and an OTLP copy of one run: span ids are the OpenTelemetry SDK's
 * own, `source` names the input format, told steps of equal time come in storage order, and a
 * declined attempt's message does not travel over OTLP (the OTLP mapping, the TypeScript runtime's
 * too, carries a message only in the status of a failed span: a refusal is not an error there).
 */
function sameFacts(answer: Record<string, unknown> | undefined): unknown {
  const t = comparable(answer) as Timeline;
  const declined = t.strings.indexOf("declined");
  // Only OTLP carries trace ids; they sit at the end of the string table, after every other value.
  const traces = new Set<unknown>();
  for (const call of t.calls) {
    delete (call as { error?: { source?: string } }).error?.source;
    for (const a of call.attempts) {
      a[A.spanId] = "<span id>";
      if (a[A.outcome] === declined) a[A.message] = "<not carried>";
      traces.add(a[A.traceId]);
      a[A.traceId] = "<trace id>";
    }
  }
  t.strings = t.strings.filter((_, i) => !traces.has(i));
  t.toldSteps = t.toldSteps.map((x) => JSON.stringify(x)).sort();
  return t;
}

describe("the TypeScript runtime and the Python package against one server", () => {
  it("the read API answers the same for the same scripted agent", { timeout: 600_000 }, async () => {
    const now = Date.now();
    const tsRun = await typescriptRun(now);
    const pyRun = pythonRun(now);
    expect(pyRun).toMatch(/^py-run_1$/);
    const read = async (runId: string) => {
      const res = await fetch(server.at(`/api/v1/runs/${encodeURIComponent(runId)}`));
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const [ts, py] = await Promise.all([read(tsRun), read(pyRun)]);
    expect(JSON.stringify(ts)).toContain("outside_policy");
    if (process.env.FAULTLINE_SHOW_CROSS) console.log(JSON.stringify(comparable(ts), null, 1));
    expect((ts.run as { unansweredToolUses: number }).unansweredToolUses).toBe(1);
    expect(comparable(py)).toEqual(comparable(ts));
    // Two runs of one agent and release in the list, one per SDK, with the same counts.
    const list = (await (await fetch(server.at("/api/v1/runs?window=7d"))).json()) as { runs: Record<string, unknown>[] };
    const mine = list.runs.filter((r) => r.runId === tsRun || r.runId === pyRun);
    expect(mine).toHaveLength(2);
    expect(comparable(mine[0])).toEqual(comparable(mine[1]));
    // The Conformance page tells the two emitters apart by the SDK that sent them.
    const conformance = (await (await fetch(server.at("/api/v1/conformance"))).json()) as { emitters: { service: string | null; convention: string; spans: number }[] };
    const emitters = conformance.emitters.filter((e) => e.service === "cross-language").map((e) => [e.convention, e.spans]);
    expect(emitters).toEqual([["native", 8], ["native_python", 8]]);
  });

  it("OTel mode: the same facts on OpenTelemetry spans, exported over OTLP, read back the same", { timeout: 600_000 }, async () => {
    const now = Date.now();
    const nativeRun = pythonRun(now, "pn-");
    const otelRun = pythonRun(now, "po-", "otel");
    const read = async (runId: string) => {
      const res = await fetch(server.at(`/api/v1/runs/${encodeURIComponent(runId)}`));
      return res.status === 200 ? ((await res.json()) as Record<string, unknown>) : undefined;
    };
    // The exporter has flushed, but the server may still be storing the last spans.
    await expect.poll(async () => JSON.stringify(comparable((await read(otelRun))?.run ?? null))).toContain("completed");
    const [native, otel] = await Promise.all([read(nativeRun), read(otelRun)]);
    expect(sameFacts(otel)).toEqual(sameFacts(native));
    expect((otel!.calls as unknown[]).length).toBe(6);
  });
});
