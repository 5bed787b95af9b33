// The experiment arm over OTLP, on both engines (the api-pg project runs this file on PostgreSQL):
// the real runtime tells each run one wording of a running experiment and its exporter sends OTLP,
// whose `faultline.tool_error` spans carry `faultline.experiment` / `faultline.variant`; the
// experiments API counts exposures per variant exactly as the runtime told them and as the stored
// rows recount them. Hand-built spans check that half an arm is stored as none and that an arm of
// another code or experiment is not counted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IngestRecord, ToolErrorRecord } from "@/lib/contracts";
import { experimentDetailSchema } from "@/lib/contracts/experiments";
import { Exporter, MemorySink, ToolFailure, ToolRunner, VirtualTime, defineExperiment, fanOut, seededRandom, sequentialIds } from "@/lib/runtime";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const VARIANTS = [
  { id: "control", text: "seat no longer available", weight: 50 },
  { id: "hint", text: "seat no longer available; pick another seat from the seat map", weight: 50 },
];
const EXPERIMENT = { id: "otlp-wording", code: "seat_unavailable", tool: null, variants: VARIANTS };
const experiments = () => `${server.url}/api/v1/projects/${server.project}/experiments`;
const send = (path: string, method: string, body: unknown) => fetch(experiments() + path, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** 80 runs of a seat-booking agent through the real runtime: the hinted wording makes the scripted model pick another seat more often. */
async function runAgent(exporter: Exporter): Promise<IngestRecord[]> {
  const memory = new MemorySink();
  const time = new VirtualTime(Date.now() - 3_600_000);
  const experiment = defineExperiment(EXPERIMENT.id, VARIANTS);
  const seat = {
    name: "reserve_seat",
    execute: (args: unknown) => {
      if ((args as { seat: string }).seat === "10A") throw new ToolFailure("reserve_seat", "seat_unavailable", { message: "HTTP 409", experiment });
      return { reserved: true };
    },
  };
  const runner = new ToolRunner({ agent: "seat-agent", tools: [seat], sink: fanOut(memory, exporter), clock: time, scheduler: time, random: seededRandom(7), ids: sequentialIds() });
  const model = seededRandom(21);
  for (let r = 0; r < 80; r++) {
    const run = runner.startRun({ runId: `otlp-exp-${r}` });
    const first = await run.call({ callId: `c${r}-1`, tool: "reserve_seat", args: { seat: "10A" } });
    time.advance(100);
    const hinted = "told" in first && first.told.includes("pick another seat");
    if (model() < (hinted ? 0.8 : 0.3)) await run.call({ callId: `c${r}-2`, tool: "reserve_seat", args: { seat: "12C" } });
    time.advance(100);
    run.end(r % 9 === 8 ? "failed" : "completed");
    time.advance(2_000);
  }
  return memory.records;
}

const ns = (ms: number) => `${ms}000000`;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** A final-error span as any emitter may send it, with the arm attributes given. */
function errorSpan(n: number, code: string, arm: Record<string, string>) {
  const at = Date.now() - 600_000 + n * 1_000;
  return {
    traceId: "7c8efff798038103d269b633813fc60c", spanId: (0x900 + n).toString(16).padStart(16, "0"), name: "faultline.tool_error reserve_seat", kind: 1,
    startTimeUnixNano: ns(at), endTimeUnixNano: ns(at),
    attributes: [
      str("faultline.run_id", `edge-${n}`), str("faultline.call_id", `edge-call-${n}`), str("faultline.tool", "reserve_seat"), str("faultline.code", code),
      str("faultline.error_class", "ToolFailure"), str("faultline.decision", "surfaced"), str("faultline.told", `error: ${code}: seat no longer available`),
      ...Object.entries(arm).map(([k, v]) => str(k, v)),
    ],
    status: { code: 2 },
  };
}

describe("faultline.experiment / faultline.variant over OTLP", () => {
  it("counts exposures per variant as the runtime told them and the stored rows recount them", async () => {
    expect((await send("", "POST", EXPERIMENT)).status).toBe(201);
    expect((await send(`/${EXPERIMENT.id}`, "PATCH", { action: "start" })).status).toBe(200);

    const exporter = new Exporter({ endpoint: server.url, apiKey: server.key, format: "otlp", resource: { service: "seat-agent", environment: "test" }, flushIntervalMs: 20 });
    const records = await runAgent(exporter);
    await exporter.shutdown({ timeoutMs: 20_000 });
    expect([exporter.stats().sent, exporter.stats().droppedTotal]).toEqual([records.length, 0]);

    const edges = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
      body: JSON.stringify({
        resourceSpans: [{ resource: { attributes: [str("service.name", "seat-agent")] }, scopeSpans: [{ scope: { name: "edge" }, spans: [
          errorSpan(1, "seat_unavailable", { "faultline.experiment": EXPERIMENT.id }),
          errorSpan(2, "seat_unavailable", { "faultline.variant": "hint" }),
          errorSpan(3, "seat_unavailable", { "faultline.experiment": "other-wording", "faultline.variant": "hint" }),
          errorSpan(4, "seat_taken", { "faultline.experiment": EXPERIMENT.id, "faultline.variant": "hint" }),
        ] }] }],
      }),
    });
    expect(edges.status).toBe(200);

    // What the runtime told, per variant: every final error of the run loop was told (surface_to_model).
    const told = records.filter((r): r is ToolErrorRecord => r.type === "tool_error");
    const toldPer = (v: string) => told.filter((e) => e.experiment === EXPERIMENT.id && e.variant === v && e.told !== null).length;
    expect(told.every((e) => e.experiment === EXPERIMENT.id)).toBe(true);
    expect(toldPer("control") + toldPer("hint")).toBe(told.length);
    expect(toldPer("control")).toBeGreaterThan(15);
    expect(toldPer("hint")).toBeGreaterThan(15);

    // Stored as sent: both halves of an arm or neither (sorted here: the engines order NULL differently).
    const stored = await server.store.all<{ experiment: string | null; variant: string | null; code: string; n: number | string }>(
      "SELECT experiment, variant, code, count(*) AS n FROM tool_errors WHERE project_id = ? GROUP BY experiment, variant, code",
      [server.project],
    );
    const key = (r: { code: string; experiment: string | null; variant: string | null }) => `${r.code}|${r.experiment ?? ""}|${r.variant ?? ""}`;
    expect(stored.map((r) => ({ ...r, n: Number(r.n) })).sort((a, b) => key(a).localeCompare(key(b)))).toEqual([
      { experiment: "otlp-wording", variant: "hint", code: "seat_taken", n: 1 },
      { experiment: null, variant: null, code: "seat_unavailable", n: 2 },
      { experiment: "other-wording", variant: "hint", code: "seat_unavailable", n: 1 },
      { experiment: "otlp-wording", variant: "control", code: "seat_unavailable", n: toldPer("control") },
      { experiment: "otlp-wording", variant: "hint", code: "seat_unavailable", n: toldPer("hint") },
    ]);

    const res = await fetch(`${experiments()}/${EXPERIMENT.id}`);
    expect(res.status).toBe(200);
    const detail = experimentDetailSchema.parse(await res.json());
    const recount = await server.store.all<{ variant: string; step: string; run_state: string }>(
      `SELECT e.variant, s.step, s.run_state FROM tool_errors e JOIN told_steps s ON s.project_id = e.project_id AND s.event_id = e.event_id
       WHERE e.project_id = ? AND e.experiment = ? AND e.code = ? ORDER BY e.event_id`,
      [server.project, EXPERIMENT.id, EXPERIMENT.code],
    );
    for (const v of ["control", "hint"]) {
      const mine = recount.filter((r) => r.variant === v);
      expect(detail.stats.find((s) => s.id === v), v).toMatchObject({
        exposures: toldPer(v),
        decided: mine.filter((r) => r.step !== "pending").length,
        recovered: mine.filter((r) => r.step === "recovered" || r.step === "replaced").length,
        runsFailed: mine.filter((r) => r.step !== "pending" && r.run_state === "failed").length,
      });
      expect(mine).toHaveLength(toldPer(v));
    }
    // The model's next step was decided for most errors, and the hinted wording recovered more.
    const rate = (v: string) => detail.stats.find((s) => s.id === v)!.recovered / detail.stats.find((s) => s.id === v)!.decided;
    expect(detail.stats.every((s) => s.decided >= s.exposures * 0.9)).toBe(true);
    expect(rate("hint")).toBeGreaterThan(rate("control"));
  });
});
