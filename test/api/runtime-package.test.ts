// The runtime as its users get it: `npm pack` the package, install the tarball into an empty
// project outside the repo, compile a hello-world with strict tsc, run it against a real Faultline
// and read the records back through the read API.
//
// Uses startServer() from test/helpers/server.ts (a `next start` on a fresh temporary database
// with one project key); it needs a prior `next build`.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";

// The read API is moving from snake_case to camelCase field names; compare in camelCase so this
// test checks the runtime's records, not the casing of the day.
const camelKey = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
function camel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camel);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camelKey(k), camel(v)]));
}
type Timeline = {
  strings: string[];
  run: Record<string, unknown> | null;
  calls: { callId: string; tool: string; attempts: (string | number | boolean | null)[][]; error: Record<string, unknown> | null }[];
};

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

function run(cmd: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_fund: "false", npm_config_audit: "false", npm_config_update_notifier: "false" } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${cmd} ${args.join(" ")} failed in ${cwd}:\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

const HELLO = `import { Exporter, ToolFailure, ToolRefusal, ToolRunner, type ToolCallResult } from "@faultline/runtime";

const [endpoint, apiKey, runId] = process.argv.slice(2);
if (!endpoint || !apiKey || !runId) throw new Error("usage: hello <endpoint> <key> <runId>");

const exporter = new Exporter({ endpoint, apiKey, resource: { service: "hello-package", release: "1.2.3" } });
let searches = 0;
const runner = new ToolRunner({
  agent: "hello-agent",
  sink: exporter,
  retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
  tools: [
    {
      name: "search",
      execute: () => {
        if (++searches === 1) throw new ToolFailure("search", "upstream_unavailable", { transient: true, retryAfterMs: 5 });
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
const session = runner.startRun({ runId });
const results: ToolCallResult[] = await session.callAll([
  { callId: "call-search", tool: "search", args: { q: "oslo" } },
  { callId: "call-cancel", tool: "cancel_booking", args: {} },
]);
session.end();
await session.drain();
await exporter.shutdown({ timeoutMs: 20_000 });
console.log(JSON.stringify({ statuses: results.map((r) => r.status), stats: exporter.stats() }));
`;

let server: TestServer;
let scratch: string;

beforeAll(async () => {
  server = await startServer();
  scratch = mkdtempSync(path.join(tmpdir(), "faultline-runtime-pkg-"));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("@faultline/runtime as an installed package", () => {
  it("packs, installs into an empty project, compiles under strict tsc and delivers exact records", async () => {
    const repo = process.cwd();
    await run(NPM, ["pack", "./lib/runtime/npm", "--pack-destination", scratch, "--silent"], repo, 180_000);
    const tarball = readdirSync(scratch).find((f) => f.endsWith(".tgz"));
    expect(tarball).toMatch(/^faultline-runtime-0\.1\.0\.tgz$/);

    writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "hello-faultline", private: true, type: "module" }));
    writeFileSync(
      path.join(scratch, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          noUncheckedIndexedAccess: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
          types: ["node"],
          outDir: "out",
        },
        files: ["hello.ts"],
      }),
    );
    writeFileSync(path.join(scratch, "hello.ts"), HELLO);
    await run(NPM, ["install", `./${tarball}`, "typescript@~5.9.3", "@types/node@^20.19.0", "--no-audit", "--no-fund", "--loglevel=error"], scratch, 300_000);
    await run(process.execPath, [path.join(scratch, "node_modules/typescript/bin/tsc"), "-p", scratch], scratch, 180_000);

    const runId = `pkg-${Date.now().toString(36)}`;
    const out = await run(process.execPath, [path.join(scratch, "out/hello.js"), server.url, server.key, runId], scratch, 120_000);
    const report = JSON.parse(out.trim().split("\n").at(-1)!) as { statuses: string[]; stats: Record<string, number> };
    expect(report.statuses).toEqual(["ok", "declined"]);
    // 2 spans for search, 1 for cancel_booking, its tool_error, and the run.
    expect(report.stats).toMatchObject({ produced: 5, sent: 5, queued: 0, droppedTotal: 0, unconfirmed: 0, clamped: 0 });

    // The exporter only returns after the server answered, so the records are already stored.
    const res = await fetch(`${server.url}/api/v1/runs/${encodeURIComponent(runId)}`);
    expect(res.status).toBe(200);
    const timeline = camel(await res.json()) as Timeline;
    expect(timeline.run).toMatchObject({
      agent: "hello-agent",
      service: "hello-package",
      release: "1.2.3",
      sdkName: "faultline-runtime",
      sdkVersion: "0.1.0",
      state: "completed",
      maxToolAttempts: 12,
      error: null,
    });
    const s = (i: unknown) => (typeof i === "number" ? timeline.strings[i] : null);
    const calls = Object.fromEntries(
      timeline.calls.map((c) => [
        c.callId,
        { tool: c.tool, attempts: c.attempts.map((a) => [a[1], s(a[4]), s(a[5]), a[7], a[8], s(a[10])]), error: c.error },
      ]),
    );
    expect(calls["call-search"]).toEqual({
      tool: "search",
      attempts: [
        [1, "failed", "upstream_unavailable", true, 5, "retried"],
        [2, "ok", null, null, null, null],
      ],
      error: null,
    });
    expect(calls["call-cancel"]).toMatchObject({
      tool: "cancel_booking",
      attempts: [[1, "declined", "booking_not_cancellable", false, null, "delivered"]],
      error: {
        code: "booking_not_cancellable",
        errorClass: "ToolRefusal",
        retryable: false,
        attempts: 1,
        decision: "delivered",
        told: "booking_not_cancellable: this fare is non-refundable",
      },
    });

    // The gate command ships as the package's bin, dependency-free: release 1.2.3 is the only one, so undecided.
    const gate = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = execFile(path.join(scratch, "node_modules/.bin/faultline-gate"), ["--url", server.url, "--release", "1.2.3"], { cwd: scratch, timeout: 90_000 }, (_e, stdout, stderr) =>
        resolve({ code: child.exitCode, out: stdout + stderr }),
      );
    });
    expect([gate.code, gate.out.split("\n")[0]]).toEqual([2, "Faultline gate: UNDECIDED - no tool of release 1.2.3 has an earlier release to compare with"]);
  }, 600_000);
});
