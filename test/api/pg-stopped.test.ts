import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { postBatch, runBatch, until } from "../helpers/storage-probe";

// Issue 25, item 5: PostgreSQL stopped under a running server. The test runs its own cluster, which
// it stops and starts again (.ci/pg-cluster.sh), never the run's shared one.
const onPostgres = inject("serverDialect") === "postgres";
const cluster = (...args: string[]) => execFileSync("bash", [path.join(process.cwd(), ".ci/pg-cluster.sh"), ...args], { encoding: "utf8" }).trim();

let dir = "";
let server: TestServer;
beforeAll(async () => {
  if (!onPostgres) return;
  const [d, url] = cluster("start").split(" ");
  dir = d!;
  server = await startServer({ sharedDatabaseUrl: url! });
});
afterAll(async () => {
  if (!onPostgres) return;
  // The server's own test connection ends with the cluster, whatever state it is in.
  server?.kill();
  await server?.stop().catch(() => undefined);
  if (dir) cluster("stop", dir);
});

const read = (p: string) => fetch(`${server.url}${p}`);
const UNAVAILABLE = { error: { code: "unavailable", message: "storage is temporarily unavailable; retry later" } };

describe.skipIf(!onPostgres)("PostgreSQL stopped under a running server", () => {
  it("answers reads 503 + Retry-After in the envelope and pages an in-app page, then recovers by itself", { timeout: 120_000 }, async () => {
    expect((await postBatch(server, runBatch("before"))).status).toBe(200);
    expect((await read("/api/v1/runs?project=default")).status).toBe(200);

    cluster("halt", dir);
    for (const p of ["/api/v1/runs?project=default", "/api/v1/tools?project=default", "/api/v1/overview?project=default", "/api/v1/projects"]) {
      const res = await read(p);
      expect([p, res.status, res.headers.get("retry-after"), res.headers.get("content-type")]).toEqual([p, 503, "5", "application/json"]);
      expect(await res.json()).toEqual(UNAVAILABLE);
    }
    for (const p of ["/", "/runs", "/tools/lookup"]) {
      const page = await read(p);
      const html = await page.text();
      // Next keeps its own status on a rewrite; the Retry-After and the page say it.
      expect([p, page.headers.get("retry-after"), page.headers.get("cache-control")]).toEqual([p, "5", expect.stringContaining("no-store")]);
      expect(html).toContain("Storage is unavailable");
      expect(html).toContain('data-testid="retry-soon"');
    }
    expect((await postBatch(server, runBatch("during"))).status).toBe(503);

    cluster("resume", dir);
    const back = await until(() => read("/api/v1/runs?project=default"), (res) => res.status === 200);
    expect(back.status).toBe(200);
    expect((await read("/")).status).toBe(200);
    expect((await postBatch(server, runBatch("during"))).status).toBe(200);
    // Losing the connections was handled: nothing escaped as an uncaught exception.
    expect(server.output()).not.toMatch(/uncaught|unhandled/i);
  });
});
