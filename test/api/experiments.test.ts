// Wording experiments on the real server (both engines with the api-pg project): an admin creates and
// starts one; the real runtime, fed the project's wording set over HTTP with a read key, tells each
// run one variant and its records go through ingest; the per-variant counts of the detail equal a
// recount of the stored rows; promoting the winner reaches the running runtime within its TTL.
import { beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/db/keys";
import { experimentDetailSchema, type ExperimentDetail } from "@/lib/contracts/experiments";
import { wordingSetSchema } from "@/lib/contracts/wordings";
import { MemorySink, RemoteWordings, ToolFailure, ToolRunner, VirtualTime, assignVariant, seededRandom, sequentialIds } from "@/lib/runtime";
import { json, useTeam } from "./team-fixture";

const team = useTeam();
let ingestKey = "";
let readKey = "";
beforeAll(async () => {
  const t = team();
  ingestKey = (await createKey(t.server.store, t.project, "experiments ingest")).key;
  readKey = (await createKey(t.server.store, t.project, "experiments read", "read")).key;
});

const base = () => `${team().server.url}/api/v1/projects/${team().project}/experiments`;
const send = (path: string, method: string, body: unknown, who: "admin" | "member" | "viewer" = "admin") => fetch(base() + path, json(method, team().headersOf(who), body));
const wordingsUrl = () => `${team().server.url}/api/v1/wordings?project=${team().project}`;
const CONTROL = "fare class no longer sold";
const HINT = "pick another fare class from the search_flights results";
const EXPERIMENT = {
  id: "fare-wording", code: "fare_class_unavailable", tool: "book_flight",
  variants: [{ id: "control", text: CONTROL, weight: 50 }, { id: "hint", text: HINT, weight: 50 }],
};

async function detail(): Promise<ExperimentDetail> {
  const res = await fetch(`${base()}/fare-wording`, { headers: team().headersOf("viewer") });
  expect(res.status).toBe(200);
  return experimentDetailSchema.parse(await res.json());
}

async function ingest(records: readonly unknown[]): Promise<void> {
  for (let at = 0; at < records.length; at += 500) {
    const res = await fetch(`${team().server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ingestKey}` },
      body: JSON.stringify({ resource: { service: "booking-agent", release: "2.0.0" }, records: records.slice(at, at + 500) }),
    });
    expect(res.status).toBe(200);
  }
}

/** A runtime on virtual time whose booking tool refuses fare Y, with the project's wordings from Faultline. */
function agent(time: VirtualTime, wordings: RemoteWordings) {
  const sink = new MemorySink();
  const book = {
    name: "book_flight",
    execute: (args: unknown) => {
      if ((args as { fare: string }).fare === "Y") throw new ToolFailure("book_flight", "fare_class_unavailable", { message: "sold out" });
      return { booking: "BK1" };
    },
  };
  const runner = new ToolRunner({ agent: "booking-agent", tools: [book], sink, clock: time, scheduler: time, random: seededRandom(3), ids: sequentialIds(), wordings });
  return { sink, runner };
}

describe("wording experiments", () => {
  it("lets only admins create and start, refuses bad drafts, and audits every change", async () => {
    expect((await send("", "POST", EXPERIMENT, "member")).status).toBe(403);
    const bad = await send("", "POST", { ...EXPERIMENT, variants: [{ id: "a", text: "x", weight: 60 }, { id: "a", text: "y", weight: 30 }] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { issues: { message: string }[] } }).error.issues.map((i) => i.message)).toEqual(["the weights must add up to 100", "variant ids must differ"]);
    const created = await send("", "POST", EXPERIMENT);
    expect(created.status).toBe(201);
    expect(experimentDetailSchema.parse(await created.json()).experiment.state).toBe("draft");
    expect((await send("", "POST", EXPERIMENT)).status).toBe(409);
    expect((await send("/fare-wording", "PATCH", { action: "start" }, "member")).status).toBe(403);
    const started = await send("/fare-wording", "PATCH", { action: "start" });
    expect(started.status).toBe(200);
    expect((await detail()).experiment).toMatchObject({ state: "running", startedAt: expect.any(Number) });
    expect((await send("/fare-wording", "PATCH", { action: "start" })).status).toBe(409);
    const audit = await team().server.store.all<{ action: string; target: string }>("SELECT action, target FROM audit_log WHERE project_id = ? AND action LIKE 'experiment.%' ORDER BY id", [team().project]);
    expect(audit).toEqual([{ action: "experiment.created", target: "fare-wording" }, { action: "experiment.started", target: "fare-wording" }]);
  });

  it("serves the wording set to a read key with an ETag and max-age, 304 when unchanged, and refuses an ingest key", async () => {
    const res = await fetch(wordingsUrl(), { headers: { authorization: `Bearer ${readKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=60");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    expect(wordingSetSchema.parse(await res.json()).entries).toEqual([{ code: "fare_class_unavailable", tool: "book_flight", experiment: "fare-wording", state: "running", variants: EXPERIMENT.variants }]);
    expect((await fetch(wordingsUrl(), { headers: { authorization: `Bearer ${readKey}`, "if-none-match": etag } })).status).toBe(304);
    expect((await fetch(wordingsUrl(), { headers: { authorization: `Bearer ${ingestKey}` } })).status).toBe(403);
  });

  it("counts exposures and outcomes per variant exactly as the stored records recount them, and rolls a promoted winner out within the TTL", async () => {
    const time = new VirtualTime(Date.now() - 3_600_000);
    const failures: unknown[] = [];
    // The clock is virtual (the TTL), the request timeout real: this request goes over the network.
    const wordings = new RemoteWordings({ baseUrl: team().server.url, project: team().project, apiKey: readKey, ttlMs: 60_000, clock: time, onError: (e) => failures.push(e) });
    await wordings.refresh();
    expect(failures).toEqual([]);
    expect(wordings.current()?.size).toBe(1);
    const { sink, runner } = agent(time, wordings);
    const model = seededRandom(11);
    for (let r = 0; r < 120; r++) {
      const run = runner.startRun({ runId: `exp-run-${r}` });
      const first = await run.call({ callId: "c1", tool: "book_flight", args: { fare: "Y" } });
      time.advance(50);
      const hinted = "told" in first && first.told.includes(HINT);
      if (model() < (hinted ? 0.8 : 0.3)) await run.call({ callId: "c2", tool: "book_flight", args: { fare: "M" } });
      time.advance(50);
      run.end(r % 10 === 9 ? "failed" : "completed");
      time.advance(1_000);
    }
    await ingest(sink.records);
    const d = await detail();
    // The recount: every stored row of the experiment, read one by one, tallied here.
    const rows = await team().server.store.all<{ variant: string; step: string; run_state: string }>(
      `SELECT e.variant, s.step, s.run_state FROM tool_errors e JOIN told_steps s ON s.project_id = e.project_id AND s.event_id = e.event_id
       WHERE e.project_id = ? AND e.experiment = 'fare-wording' ORDER BY e.event_id`,
      [team().project],
    );
    expect(rows).toHaveLength(120);
    for (const v of ["control", "hint"]) {
      const mine = rows.filter((r) => r.variant === v);
      const stat = d.stats.find((s) => s.id === v)!;
      expect(stat).toMatchObject({
        exposures: mine.length,
        decided: mine.filter((r) => r.step !== "pending").length,
        recovered: mine.filter((r) => r.step === "recovered" || r.step === "replaced").length,
        runsFailed: mine.filter((r) => r.step !== "pending" && r.run_state === "failed").length,
      });
      // And the recount agrees with what the runtime recorded before ingest.
      expect(mine.length).toBe(sink.ofType("tool_error").filter((e) => e.variant === v).length);
    }
    expect(d.stats.reduce((n, s) => n + s.exposures, 0)).toBe(120);

    // Promote: the running runtime still tells the experiment until its TTL runs out, then the winner.
    await wordings.refresh();
    const promoted = await send("/fare-wording", "PATCH", { action: "promote", variant: "hint" });
    expect(promoted.status).toBe(200);
    expect(experimentDetailSchema.parse(await promoted.json()).experiment).toMatchObject({ state: "stopped_winner", winner: "hint" });
    const tell = async (runId: string) => {
      const run = runner.startRun({ runId });
      await run.call({ callId: "c1", tool: "book_flight", args: { fare: "Y" } });
      run.end();
      return sink.ofType("tool_error").find((e) => e.run_id === runId)!;
    };
    // Runs the experiment puts on the control: before the TTL they still hear the control, after it the winner.
    const onControl = Array.from({ length: 50 }, (_, i) => `late-${i}`).filter((id) => assignVariant(id, "fare-wording", EXPERIMENT.variants)!.id === "control");
    const before = await tell(onControl[0]!);
    expect(before).toMatchObject({ experiment: "fare-wording", variant: "control" });
    expect(before.told).toContain(CONTROL);
    time.advance(59_999);
    expect((await tell(onControl[1]!)).variant).toBe("control");
    time.advance(1);
    // The first look after the TTL starts the refresh in the background; this waits for it.
    wordings.current();
    await wordings.refresh();
    const after = await tell(onControl[2]!);
    expect(after.told).toContain(HINT);
    expect(after).not.toHaveProperty("experiment");
    const audit = await team().server.store.all<{ action: string }>("SELECT action FROM audit_log WHERE project_id = ? AND action = 'experiment.promoted'", [team().project]);
    expect(audit).toHaveLength(1);
  });
});
