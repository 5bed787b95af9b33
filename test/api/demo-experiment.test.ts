// The demo ships one experiment: `npm run demo` against a fresh server (the shared one, in setup
// mode; both engines with the api-pg project) creates and starts `fare-wording`, so the Experiments
// page has one running on the demo's traffic; a second run leaves it as it is. Once an account
// exists it takes the admin secret, and without it the demo says so and runs on.
import { execFile } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { experimentDetailSchema, experimentsAnswerSchema } from "@/lib/contracts/experiments";
import { assignVariant } from "@/lib/runtime";
import { FARE_EXPERIMENT } from "@/scripts/demo-experiment";
import { openProject, type ProjectServer } from "../helpers/project";
import { startServer } from "../helpers/server";
import { createAccount } from "../helpers/session-accounts";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

/** `npm run demo` into a project (this file's by default); answers its exit code and what it said on stderr. */
function demo(runs: number, target: { url: string; key: string; project: string } = server, extra: string[] = []): Promise<{ code: number | null; stderr: string }> {
  const tsx = path.resolve("node_modules/.bin/tsx");
  const args = ["scripts/demo.ts", "--key", target.key, "--url", target.url, "--project", target.project, "--runs", String(runs), ...extra];
  return new Promise((resolve) => {
    execFile(tsx, args, { timeout: 240_000, env: { ...process.env, FAULTLINE_ADMIN_SECRET: "", FAULTLINE_READ_KEY: "" } }, (error, _stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stderr }),
    );
  });
}

const api = `/api/v1/projects`;
async function read<T>(p: string, schema: { parse(v: unknown): T }): Promise<T> {
  const res = await fetch(`${server.url}${api}/${server.project}${p}`);
  expect(res.status).toBe(200);
  return schema.parse(await res.json());
}

describe("the demo's experiment", () => {
  it("is created and started by a fresh demo, counts the demo's traffic, and is left alone by the next run", { timeout: 600_000 }, async () => {
    const first = await demo(80);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain("demo: experiment fare-wording created and running (Experiments page)\n");

    const { experiments } = await read("/experiments", experimentsAnswerSchema);
    expect(experiments.map((e) => ({ id: e.id, code: e.code, tool: e.tool, state: e.state, variants: e.variants }))).toEqual([
      {
        id: "fare-wording", code: "upstream_rejected", tool: null, state: "running",
        variants: [
          { id: "control", text: "fare class no longer sold", weight: 50 },
          { id: "pick-another", text: "fare class is no longer sold; pick another fare class from the search_flights results", weight: 50 },
        ],
      },
    ]);

    // The demo's records name the experiment, each run in the variant the stored split assigns it.
    const rows = await server.store.all<{ run_id: string; variant: string; step: string | null }>(
      `SELECT e.run_id, e.variant, s.step FROM tool_errors e LEFT JOIN told_steps s ON s.project_id = e.project_id AND s.event_id = e.event_id
       WHERE e.project_id = ? AND e.experiment = 'fare-wording' AND e.code = 'upstream_rejected' ORDER BY e.event_id`,
      [server.project],
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) expect(r.variant, r.run_id).toBe(assignVariant(r.run_id, "fare-wording", FARE_EXPERIMENT.variants)!.id);
    const detail = await read("/experiments/fare-wording", experimentDetailSchema);
    for (const v of ["control", "pick-another"]) {
      expect(detail.stats.find((s) => s.id === v)?.exposures, v).toBe(rows.filter((r) => r.variant === v && r.step !== null).length);
    }
    expect(detail.stats.reduce((n, s) => n + s.exposures, 0)).toBeGreaterThan(5);

    const again = await demo(3);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("demo: experiment fare-wording is running (left as it is)\n");
    expect((await read("/experiments", experimentsAnswerSchema)).experiments.map((e) => [e.id, e.state])).toEqual([["fare-wording", "running"]]);
    const audit = await server.store.all<{ action: string; target: string }>(
      "SELECT action, target FROM audit_log WHERE project_id = ? AND action LIKE 'experiment.%' ORDER BY id",
      [server.project],
    );
    expect(audit).toEqual([{ action: "experiment.created", target: "fare-wording" }, { action: "experiment.started", target: "fare-wording" }]);
  });

  it("needs the admin secret once an account exists; without it the demo says so and its records still name the experiment", { timeout: 600_000 }, async () => {
    const secret = "demo-admin-secret-0123";
    const own = await startServer({ dialect: inject("serverDialect"), env: { FAULTLINE_ADMIN_SECRET: secret } });
    try {
      await createAccount(own.store, { email: "owner@demo.test", instanceOwner: true });
      const target = { url: own.url, key: own.key, project: "default" };
      const refused = await demo(40, target);
      expect(refused.code, refused.stderr).toBe(0);
      expect(refused.stderr).toContain(
        "demo: experiment fare-wording not created (401: creating one takes a project admin; pass --admin-secret or set FAULTLINE_ADMIN_SECRET); the records still name it\n",
      );
      const count = async (table: string, where: string) => Number((await own.store.get<{ n: number | string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`))!.n);
      expect(await count("experiments", "project_id = 'default'")).toBe(0);
      expect(await count("tool_errors", "project_id = 'default' AND experiment = 'fare-wording'")).toBeGreaterThan(0);

      const created = await demo(3, target, ["--admin-secret", secret]);
      expect(created.stderr).toContain("demo: experiment fare-wording created and running (Experiments page)\n");
      expect(await own.store.all("SELECT id, state FROM experiments WHERE project_id = 'default'")).toEqual([{ id: "fare-wording", state: "running" }]);
    } finally {
      await own.stop();
    }
  });
});
