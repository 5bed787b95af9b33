// The Python package in a wording experiment on the real server (both engines with the api-pg
// project): its RemoteWordings reads the project's wording set with a read key, each run hears the
// variant the TypeScript assignment names, its records reach the per-variant counts, and a winner
// promoted through the API reaches the running Python agent exactly when its TTL runs out (its
// clock is virtual, advanced by this test through the agent's stdin).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey } from "@/db/keys";
import { experimentDetailSchema } from "@/lib/contracts/experiments";
import { assignVariant } from "@/lib/runtime";
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

const CONTROL = "fare class no longer sold";
const HINT = "fare class no longer sold; pick another fare class";
const EXPERIMENT = {
  id: "py-fare-wording", code: "fare_class_unavailable", tool: "book_flight",
  variants: [{ id: "control", text: CONTROL, weight: 50 }, { id: "hint", text: HINT, weight: 50 }],
};
const experiments = () => `${server.url}/api/v1/projects/${server.project}/experiments`;
const send = (p: string, method: string, body: unknown) => fetch(experiments() + p, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const told = (text: string) => `error: fare_class_unavailable: ${text}\nretryable: no (repeating the same call will not help)`;

type ErrorRecord = { run_id: string; told: string; experiment?: string; variant?: string; code: string; error_class: string; retryable: boolean; decision: string };

/** The Python agent (sdk/python/tests/experiment_agent.py): one JSON command in, one JSON answer out. */
function pythonAgent(readKey: string): { ask<T>(command: object): Promise<T>; child: ChildProcessWithoutNullStreams } {
  const problem = ensurePythonEnv(ENVS.main) as string | undefined;
  expect(problem, "the Python SDK's virtual environment").toBeUndefined();
  const script = path.join(import.meta.dirname, "../../sdk/python/tests/experiment_agent.py");
  const child = spawn(pythonOf(ENVS.main) as string, [script, server.url, readKey, server.key, server.project, String(Date.now() - 3_600_000)]);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    async ask<T>(command: object): Promise<T> {
      child.stdin.write(`${JSON.stringify(command)}\n`);
      const next = await lines.next();
      if (next.done) throw new Error(`the Python agent ended: ${stderr}`);
      return JSON.parse(next.value) as T;
    },
  };
}

describe("the Python package in a wording experiment", () => {
  it("hears the assigned variant, is counted per variant, and picks up a promoted winner within its TTL", { timeout: 300_000 }, async () => {
    expect((await send("", "POST", EXPERIMENT)).status).toBe(201);
    expect((await send(`/${EXPERIMENT.id}`, "PATCH", { action: "start" })).status).toBe(200);
    const { key: readKey } = await createKey(server.store, server.project, "python read", "read");
    const agent = pythonAgent(readKey);
    try {
      expect(await agent.ask({ do: "refresh" })).toMatchObject({ entries: 1, errors: [] });

      const heard: ErrorRecord[] = [];
      for (let r = 0; r < 80; r++) heard.push(await agent.ask<ErrorRecord>({ do: "tell", run: `py-exp-${r}` }));
      for (const e of heard) {
        const expected = assignVariant(e.run_id, EXPERIMENT.id, EXPERIMENT.variants)!;
        expect({ experiment: e.experiment, variant: e.variant, told: e.told }, e.run_id).toEqual({ experiment: EXPERIMENT.id, variant: expected.id, told: told(expected.text) });
        expect([e.code, e.error_class, e.retryable, e.decision]).toEqual(["fare_class_unavailable", "ToolFailure", false, "surfaced"]);
      }
      const per = (v: string) => heard.filter((e) => e.variant === v).length;
      expect(per("control")).toBeGreaterThan(20);
      expect(per("hint")).toBeGreaterThan(20);

      const exported = await agent.ask<{ produced: number; sent: number; dropped: number }>({ do: "export" });
      expect([exported.sent, exported.dropped]).toEqual([exported.produced, 0]);
      const detail = experimentDetailSchema.parse(await (await fetch(`${experiments()}/${EXPERIMENT.id}`)).json());
      expect(detail.stats.map((s) => [s.id, s.exposures])).toEqual([["control", per("control")], ["hint", per("hint")]]);
      expect(detail.stats.every((s) => s.decided === s.exposures)).toBe(true);

      // Promote: the agent keeps the experiment until its TTL runs out, then tells the winner to every run.
      const onControl = Array.from({ length: 60 }, (_, i) => `py-late-${i}`).filter((id) => assignVariant(id, EXPERIMENT.id, EXPERIMENT.variants)!.id === "control");
      const { now: refreshed } = await agent.ask<{ now: number }>({ do: "refresh" });
      expect((await send(`/${EXPERIMENT.id}`, "PATCH", { action: "promote", variant: "hint" })).status).toBe(200);
      const before = await agent.ask<ErrorRecord>({ do: "tell", run: onControl[0], at: refreshed + 59_999 });
      expect([before.experiment, before.variant, before.told]).toEqual([EXPERIMENT.id, "control", told(CONTROL)]);
      // The first look once the TTL has run out asks in the background; the agent waits for that request.
      expect(await agent.ask({ do: "look", at: refreshed + 60_000 })).toEqual({ settled: true, errors: [] });
      const after = await agent.ask<ErrorRecord>({ do: "tell", run: onControl[1], at: refreshed + 60_000 });
      expect(after.told).toBe(told(HINT));
      expect(after).not.toHaveProperty("experiment");
      expect(after).not.toHaveProperty("variant");
    } finally {
      agent.child.stdin.end();
      await new Promise((resolve) => (agent.child.exitCode !== null ? resolve(null) : agent.child.once("exit", resolve)));
    }
  });
});
