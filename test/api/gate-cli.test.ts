// The gate command as a CI step runs it: a child process against a real server guarded by an admin
// secret, checked by its exit code and its report's key lines.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createKey } from "@/db/keys";
import { freePort, startServer, type TestServer } from "../helpers/server";
import { ingestGateScenario, ingestImprovementAndCalVer, REPURPOSED_PATCH } from "./gate-fixture";

const SECRET = "gate-admin-s3cret-gate";
const CLI = path.resolve("lib/runtime/npm/bin/faultline-gate.mjs");

let server: TestServer;
let readKey: string;
let scratch: string;
beforeAll(async () => {
  server = await startServer({ dialect: inject("serverDialect"), env: { FAULTLINE_ADMIN_SECRET: SECRET } });
  readKey = (await createKey(server.store, "default", "gate key", "read")).key;
  scratch = mkdtempSync(path.join(tmpdir(), "faultline-gate-"));
  await ingestGateScenario(server.url, server.key);
  await ingestImprovementAndCalVer(server.url, server.key);
  // Reads start the background fold and never wait for it.
  for (;;) {
    const res = await fetch(`${server.url}/api/v1/gate?release=1.0.1`, { headers: { authorization: `Bearer ${SECRET}` } });
    if (((await res.json()) as { upToDate: boolean }).upToDate) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);
afterAll(async () => {
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Runs the gate command; resolves with its exit code and everything it printed. */
function gate(...args: string[]): Promise<{ code: number | null; out: string }> {
  const env = { ...process.env };
  delete env.FAULTLINE_URL;
  delete env.FAULTLINE_GATE_KEY;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env, timeout: 30_000 }, (_error, stdout, stderr) => resolve({ code: child.exitCode, out: stdout + stderr }));
  });
}
const withSecret = (...args: string[]) => gate("--url", server.url, "--key", SECRET, "--project", "default", ...args);

describe("the gate command", () => {
  it("exits 1 on a repurposed code in a patch release and prints the finding's sentence", async () => {
    const r = await withSecret("--release", "1.0.1");
    expect(r.code, r.out).toBe(1);
    const lines = r.out.split("\n");
    expect(lines.slice(0, 3)).toEqual([
      "Faultline gate: FAIL - 1 SemVer violation in release 1.0.1",
      "project default, release 1.0.1: 1 of 1 tool compared with its previous release",
      "  lookup: 1.0.0 (20 calls) -> 1.0.1 (20 calls)",
    ]);
    expect(lines).toContain("  [critical] repurposed `upstream_timeout` on `lookup` (1.0.0 -> 1.0.1)");
    expect(lines).toContain(`    ${REPURPOSED_PATCH}`);
  });

  it("exits 0 on a clean release, with a read key too, listing the new code", async () => {
    for (const key of [SECRET, readKey]) {
      const r = await gate("--url", server.url, "--key", key, "--release", "1.1.0");
      expect(r.code, r.out).toBe(0);
      expect(r.out.split("\n")[0]).toBe("Faultline gate: PASS - no SemVer violation in release 1.1.0");
      expect(r.out).toContain("New codes:\n  + `quota_exceeded` on `lookup` (10 calls)");
    }
  });

  it("gates against a committed contract file", async () => {
    const res = await fetch(`${server.url}/api/v1/codes/contract?release=1.0.0`, { headers: { authorization: `Bearer ${readKey}` } });
    expect(res.status).toBe(200);
    const file = path.join(scratch, "contract-1.0.0.json");
    writeFileSync(file, await res.text());
    const r = await withSecret("--release", "1.0.1", "--against", file);
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain("project default, release 1.0.1: 1 of 1 tool compared with the contract of 1.0.0");
    expect(r.out).toContain(
      "Not checked against a document (3):\n" +
        "  retry_after_p90: the document keeps only the median retry_after, so waits are compared by their medians: a change in the slowest 10 % alone is not seen\n",
    );
  });

  it("exits 0 on a release that only got better, listing the improvement; a date-released change for the worse is not PASS", async () => {
    const better = await withSecret("--release", "2.1.0");
    expect(better.code, better.out).toBe(0);
    expect(better.out.split("\n").slice(0, 3)).toEqual([
      "Faultline gate: PASS - no SemVer violation in release 2.1.0 (1 improvement listed)",
      "project default, release 2.1.0: 1 of 1 tool compared with its previous release",
      "  search: 2.0.0 (25 calls) -> 2.1.0 (25 calls)",
    ]);
    expect(better.out).toContain("Improvements, for information (1):\n  [info] behaviour `upstream_unavailable` on `search` (2.0.0 -> 2.1.0)");
    const calver = await withSecret("--release", "2026-11-09");
    expect(calver.code, calver.out).toBe(2);
    expect(calver.out.split("\n")[0]).toBe(
      "Faultline gate: UNDECIDED - 1 finding to review in release 2026-11-09 (the most severe high): its releases are not semantic versions, so SemVer cannot judge them",
    );
  });

  it("exits 2 when it cannot decide: unknown release, too few calls, refused key, unreachable server", async () => {
    const unknown = await withSecret("--release", "9.9.9");
    expect([unknown.code, unknown.out.split("\n")[0]]).toEqual([2, "Faultline gate: UNDECIDED - no tool call of default was recorded in release 9.9.9"]);
    const thin = await withSecret("--release", "1.1.1");
    expect(thin.code).toBe(2);
    expect(thin.out).toContain("too few calls to judge (at least 20 per tool and release are needed): lookup: 30 calls in 1.1.0, 5 calls in 1.1.1");
    const ingestKey = await gate("--url", server.url, "--key", server.key, "--release", "1.1.0");
    expect([ingestKey.code, ingestKey.out.trim()]).toEqual([
      2,
      "Faultline gate: UNDECIDED - the server refused the request (403 forbidden: this is an ingest key: it cannot read; create a read key with `npm run keys -- create --read`)",
    ]);
    const noKey = await gate("--url", server.url, "--release", "1.1.0");
    expect([noKey.code, noKey.out]).toEqual([2, expect.stringContaining("(401 unauthorized: send the admin secret or a read key")]);
    const port = await freePort();
    const down = await gate("--url", `http://127.0.0.1:${port}`, "--key", SECRET, "--release", "1.1.0");
    expect([down.code, down.out.trim()]).toEqual([2, `Faultline gate: UNDECIDED - cannot reach http://127.0.0.1:${port}: ECONNREFUSED`]);
    const usage = await gate("--release", "1.1.0");
    expect(usage.code).toBe(2);
  });
});

describe("with an admin secret configured", () => {
  it("asks the gate and contract for credentials, and takes the secret as Bearer or Basic", async () => {
    const url = `${server.url}/api/v1/gate?release=1.1.0`;
    const none = await fetch(url);
    expect([none.status, (await none.json()) as unknown]).toEqual([401, { error: { code: "unauthorized", message: "send the admin secret or a read key (Authorization: Bearer <secret or key>), or sign in" } }]);
    expect((await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`ci:${SECRET}`).toString("base64")}` } })).status).toBe(200);
    expect((await fetch(url, { headers: { authorization: `Bearer ${readKey}` } })).status).toBe(200);
    expect((await fetch(url, { headers: { authorization: "Bearer not-the-secret-at-all" } })).status).toBe(401);
    expect((await fetch(`${server.url}/api/v1/codes/contract?release=1.1.0`)).status).toBe(401);
  });
});
