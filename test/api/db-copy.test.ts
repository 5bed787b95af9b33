import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openPgStore, openSqliteStore } from "@/db/client";
import { copyToPostgres, TargetNotEmptyError } from "@/db/copy/copy-to-postgres";
import { createProject } from "@/db/keys";
import { startServer, type TestServer } from "../helpers/server";
import { createTestDatabase } from "../helpers/stores";
import { WINDOW, seedFixture } from "./read-fixture";
import { seedRuns } from "./runs-fixture";

// Moving up (issue 11): a SQLite database copied with db:copy answers the dashboards' read APIs with
// the same JSON on PostgreSQL. Runs in the api-pg project only.
const onPostgres = inject("serverDialect") === "postgres";

// The fixtures sit at fixed past dates: keep them from the retention sweep.
const ENV = { FAULTLINE_RETENTION_DAYS: "36500", FAULTLINE_ROLLUP_RETENTION_DAYS: "36500", FAULTLINE_DRIFT_REFRESH_MS: "50" };

const READS = [
  `/api/v1/overview?${WINDOW}`,
  `/api/v1/tools?${WINDOW}`,
  `/api/v1/tools/detail?tool=lookup&${WINDOW}`,
  `/api/v1/codes?${WINDOW}`,
  `/api/v1/codes/detail?code=upstream_unavailable&${WINDOW}`,
  "/api/v1/runs?limit=100",
  "/api/v1/runs?limit=100&sort=retries&dir=desc",
  "/api/v1/run-facets",
  "/api/v1/runs/run-1",
  "/api/v1/drift",
  "/api/v1/drift/summary",
  "/api/v1/conformance",
  "/api/v1/search?q=r",
  "/api/v1/projects",
];

async function answers(server: TestServer, project: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const path of READS) {
    const res = await fetch(`${server.url}${path}${path.includes("?") ? "&" : "?"}project=${project}`);
    out[path] = { status: res.status, body: await res.json() };
  }
  return out;
}

/** Waits for the server's background drift fold of the project (also from a hook, where expect.poll cannot run). */
async function folded(server: TestServer, project: string): Promise<void> {
  for (;;) {
    const summary = (await (await fetch(`${server.url}/api/v1/drift/summary?project=${project}`)).json()) as { upToDate: boolean };
    if (summary.upToDate) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!onPostgres)("db:copy from SQLite to PostgreSQL", () => {
  let before: TestServer;
  let after: TestServer | undefined;
  let target: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    before = await startServer({
      env: ENV,
      seed: async (store) => {
        await createProject(store, "copied", "Copied");
        await seedFixture(store, "copied");
        await seedRuns(store, "copied");
      },
    });
    await folded(before, "copied");
    target = await createTestDatabase({ unmigrated: true });
  }, 120_000);
  afterAll(async () => {
    await after?.stop();
    await before?.stop();
    await target?.drop();
  });

  it("copies every table, then the read APIs answer the same JSON on PostgreSQL", async () => {
    const sqliteAnswers = await answers(before, "copied");
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ["node_modules/tsx/dist/cli.mjs", "scripts/db-copy.ts", "--from", before.dbPath, "--to", target.url]);
    expect(stderr).toContain(`copying ${before.dbPath} into`);
    expect(stdout).toContain("done: every table's row count matches.");
    expect(stdout).not.toContain("MISMATCH");
    expect(stdout).toMatch(/^tool_call_spans\s+\d+ → +\d+$/m);

    after = await startServer({ sharedDatabaseUrl: target.url, env: ENV });
    await folded(after, "copied");
    expect(await answers(after, "copied")).toEqual(sqliteAnswers);
  }, 120_000);

  it("refuses a target that already holds data, and changes nothing in it", async () => {
    const db = await createTestDatabase();
    const source = openSqliteStore(before.dbPath);
    const pg = await openPgStore(db.url, { poolMax: 2 });
    try {
      const counts = await copyToPostgres(source, pg);
      expect(counts.filter((c) => c.source !== c.target)).toEqual([]);
      const spans = (await pg.get<{ n: number }>("SELECT count(*) AS n FROM tool_call_spans"))!.n;
      expect(spans).toBe(counts.find((c) => c.table === "tool_call_spans")!.source);
      await expect(copyToPostgres(source, pg)).rejects.toBeInstanceOf(TargetNotEmptyError);
      expect((await pg.get<{ n: number }>("SELECT count(*) AS n FROM tool_call_spans"))!.n).toBe(spans);
    } finally {
      await source.close();
      await pg.close();
      await db.drop();
    }
  });
});
