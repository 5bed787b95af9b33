import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { SPAN_BATCH_START, spanBatch } from "../helpers/span-batches";
import { postBatch as post } from "../helpers/storage-probe";
import { createTestDatabase } from "../helpers/stores";

// Several stateless nodes on one PostgreSQL (issue 11): two `next start` processes that start at the
// same moment on an empty database, then ingest concurrently — different batches, the same batch
// on both, and one node killed mid-ingest. Runs in the api-pg project only.
const onPostgres = inject("serverDialect") === "postgres";

const batch = (n: number) => spanBatch(n, { service: "two-nodes", code: (_n, i) => `code_${i % 4}` });
const T = SPAN_BATCH_START;

/**
 * As the runtime's exporter does: a request shed for load (429) or refused by a busy store (503) is
 * sent again after its Retry-After. Shedding is the admission policy at work on a loaded machine;
 * what this file checks is that whatever is acknowledged is stored once.
 */
async function postUntilAnswered(node: TestServer, body: string): Promise<Response> {
  for (let tries = 1; ; tries++) {
    const answer = await post(node, body);
    if ((answer.status !== 429 && answer.status !== 503) || tries === 10) return answer;
    await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get("retry-after") ?? "1") * 1000));
  }
}

describe.skipIf(!onPostgres)("two nodes on one PostgreSQL", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    db = await createTestDatabase({ unmigrated: true });
    // Both start together on an empty database: the migration lock makes one of them migrate.
    [a, b] = await Promise.all([startServer({ sharedDatabaseUrl: db.url }), startServer({ sharedDatabaseUrl: db.url })]);
  }, 180_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  const count = async (sql: string, params: unknown[] = []) => (await a.store.get<{ n: number }>(sql, params))!.n;

  it("stores every record exactly once and keeps every rollup equal to a recount", async () => {
    const posts: Promise<Response>[] = [];
    // Different batches to both nodes at once, and the same batches to both at once.
    for (let n = 0; n < 12; n++) posts.push(postUntilAnswered(n % 2 === 0 ? a : b, batch(n)));
    for (let n = 12; n < 18; n++) posts.push(postUntilAnswered(a, batch(n)), postUntilAnswered(b, batch(n)));
    const answers = await Promise.all(posts);
    expect(answers.map((r) => r.status)).toEqual(posts.map(() => 200));

    expect(await count("SELECT count(*) AS n FROM tool_call_spans WHERE project_id = 'default'")).toBe(18 * 60);
    expect(await count("SELECT count(*) AS n FROM (SELECT span_id FROM tool_call_spans GROUP BY span_id HAVING count(*) > 1) d")).toBe(0);
    // Rollups against a recount of the raw rows.
    const perRun = await a.store.all<{ run_id: string; attempts: number; raw: number }>(
      `SELECT s.run_id, s.attempts, (SELECT count(*) FROM tool_call_spans t WHERE t.project_id = s.project_id AND t.run_id = s.run_id) AS raw
         FROM run_stats s WHERE s.project_id = 'default' ORDER BY s.run_id`,
    );
    expect(perRun).toHaveLength(18 * 6);
    expect(perRun.filter((r) => r.attempts !== r.raw)).toEqual([]);
    const perTool = await a.store.all<{ tool: string; spans: number; first: number }>(
      "SELECT tool, sum(spans) AS spans, sum(first_attempts) AS first FROM span_rollups_hourly WHERE project_id = 'default' GROUP BY tool ORDER BY tool",
    );
    const raw = await a.store.all<{ tool: string; spans: number; first: number }>(
      "SELECT tool, count(*) AS spans, sum(CASE WHEN attempt = 1 THEN 1 ELSE 0 END) AS first FROM tool_call_spans WHERE project_id = 'default' GROUP BY tool ORDER BY tool",
    );
    expect(perTool).toEqual(raw);
    for (const node of [a, b]) expect(node.output()).not.toMatch(/deadlock/i);
  });

  it("answers the same reads from either node", async () => {
    const q = `project=default&from=${T - 60_000}&to=${T + 3_600_000}`;
    for (const path of [`/api/v1/tools?${q}`, `/api/v1/codes?${q}`, `/api/v1/runs?${q}&limit=50`, `/api/v1/overview?${q}`]) {
      const [fromA, fromB] = await Promise.all([a, b].map(async (node) => (await fetch(`${node.url}${path}`)).json()));
      expect(fromB, path).toEqual(fromA);
    }
  });

  it("loses no acknowledged record when a node is killed mid-ingest", async () => {
    const acknowledged: number[] = [];
    const inflight: Promise<void>[] = [];
    for (let n = 100; n < 140; n++) {
      inflight.push(
        post(a, batch(n)).then(
          (res) => void (res.ok && acknowledged.push(n)),
          () => undefined,
        ),
      );
      // Kill once a few batches are acknowledged, while others are still in flight.
      if (acknowledged.length >= 5 && n % 2 === 0) {
        a.kill();
        break;
      }
      await new Promise((r) => setImmediate(r));
      if (n % 4 === 3) await Promise.race(inflight);
    }
    a.kill();
    await Promise.all(inflight);
    expect(acknowledged.length).toBeGreaterThan(0);
    console.log(`acknowledged ${acknowledged.length} of ${inflight.length} sent`);
    for (const n of acknowledged) {
      expect(await count("SELECT count(*) AS n FROM tool_call_spans WHERE project_id = 'default' AND span_id LIKE ?", [`b${n}-s%`]), `batch ${n}`).toBe(60);
    }
    // A batch the node never acknowledged is all there (committed before the answer was lost) or absent.
    for (let n = 100; n < 140; n++) {
      if (acknowledged.includes(n)) continue;
      expect([0, 60], `batch ${n}`).toContain(await count("SELECT count(*) AS n FROM tool_call_spans WHERE project_id = 'default' AND span_id LIKE ?", [`b${n}-s%`]));
    }
    // The surviving node still ingests.
    expect((await post(b, batch(200))).status).toBe(200);
  });
});
