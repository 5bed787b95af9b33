import type { PoolClient } from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openPgStore, type PgStore } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { INGEST_BARRIER_LOCK, JOB_LOCKS } from "@/db/store/locks";
import type { JobOutcome } from "@/server/jobs/job-messages";
import { runJob } from "@/server/jobs/run-job";
import { createTestDatabase, DIALECTS } from "../../helpers/stores";
import { Scenario } from "../drift/scenario";

const FOLD = { job: "drift-fold", projectId: "default" } as const;

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// Two nodes = two stores (two pools) on one PostgreSQL database, each running jobs as its worker does.
describe.skipIf(!DIALECTS.includes("postgres"))("background jobs across nodes (postgres)", () => {
  let drop: () => Promise<void>;
  let nodeA: PgStore;
  let nodeB: PgStore;
  let spans: number;

  beforeEach(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    // The folds below wait at their horizon while the test holds the ingest barrier: on a busy
    // machine that can outlast the default 5 s lock wait, which is not what these tests are about.
    nodeA = await openPgStore(db.url, { poolMax: 4, migrate: false, busyTimeoutMs: 60_000 });
    nodeB = await openPgStore(db.url, { poolMax: 4, migrate: false, busyTimeoutMs: 60_000 });
    await ensureDefaultProject(nodeA);
    const s = new Scenario("default", nodeA);
    await s.failing(20, { tool: "search", toolVersion: "1.0.0", code: "boom" }).ok(30, { tool: "search", toolVersion: "1.0.0" }).settled();
    spans = (await nodeA.get<{ n: number }>("SELECT count(*) AS n FROM tool_call_spans"))!.n;
  });
  afterEach(async () => {
    await Promise.all([nodeA.close(), nodeB.close()]);
    await drop();
  });

  /** The backend holding a job lock, if any. */
  const holder = (kind: keyof typeof JOB_LOCKS) =>
    nodeB
      .get<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = CAST(@key AS oid)
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        { key: JOB_LOCKS[kind] },
      )
      .then((r) => r?.pid);

  /** An open ingest-like transaction: while it holds the barrier, a fold that holds its lock waits at its horizon. */
  async function holdIngestBarrier(): Promise<PoolClient> {
    const c = await nodeB.pool.connect();
    await c.query("BEGIN");
    await c.query("SELECT pg_advisory_xact_lock_shared($1)", [INGEST_BARRIER_LOCK]);
    return c;
  }
  const commit = async (c: PoolClient) => {
    await c.query("COMMIT");
    c.release();
  };
  /** Starts a job now and awaits it later, without its failure surfacing meanwhile as an unhandled rejection. */
  const started = (p: Promise<JobOutcome>) => {
    p.catch(() => undefined);
    return p;
  };
  const folded = async () => (await nodeA.get<{ spans: number }>("SELECT spans FROM drift_tool_releases WHERE tool = 'search'"))?.spans;

  it("runs a project's fold on one node at a time: the other is skipped while the first holds the lock", async () => {
    const ingest = await holdIngestBarrier();
    const first = started(runJob(nodeA, FOLD));
    await until(() => holder("drift-fold"), "node A to take the fold lock");
    expect(await runJob(nodeB, FOLD)).toEqual({ rows: 0, skipped: expect.stringContaining("another node") });
    await commit(ingest);
    expect(await first).toEqual({ rows: spans + 20 });
    // The lock is free again: node B runs, and finds nothing left to fold.
    expect(await runJob(nodeB, FOLD)).toEqual({ rows: 0 });
    expect(await folded()).toBe(spans);
  });

  it("hands the fold to another node when the first one's connection dies mid-job", async () => {
    const ingest = await holdIngestBarrier();
    const first = started(runJob(nodeA, FOLD));
    const pidA = await until(() => holder("drift-fold"), "node A to take the fold lock");
    expect((await runJob(nodeB, FOLD)).skipped).toBeDefined();

    // Node A "dies": its lock connection is cut, so PostgreSQL releases the session lock.
    await nodeB.run("SELECT pg_terminate_backend(@pid)", { pid: pidA });
    const second = started(runJob(nodeB, FOLD));
    await until(async () => {
      const pid = await holder("drift-fold");
      return pid !== undefined && pid !== pidA ? pid : undefined;
    }, "node B to take over the fold lock");
    await commit(ingest);

    // A notices before its next chunk and stops; B folds everything, once.
    expect(await first).toEqual({ rows: 0, skipped: expect.stringContaining("lost the job lock") });
    expect(await second).toEqual({ rows: spans + 20 });
    expect(await folded()).toBe(spans);
    expect(await runJob(nodeA, FOLD)).toEqual({ rows: 0 });
  });

  it("runs retention and partition upkeep on one node at a time", async () => {
    const other = await nodeB.pool.connect();
    try {
      await other.query("SELECT pg_advisory_lock($1, hashtext('all'))", [JOB_LOCKS.retention]);
      const policy = { rawCutoffMs: 0, maxSpans: 1e9, rollupCutoffMs: 0 };
      expect(await runJob(nodeA, { job: "retention", policy })).toEqual({ rows: 0, skipped: expect.stringContaining("another node") });
      await other.query("SELECT pg_advisory_unlock($1, hashtext('all'))", [JOB_LOCKS.retention]);
      expect(await runJob(nodeA, { job: "retention", policy })).toEqual({ rows: 0 });
    } finally {
      other.release();
    }
  });
});
