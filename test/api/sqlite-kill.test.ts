import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { ISSUE_OUTCOMES } from "@/lib/contracts/issues";
import { startServer, type TestServer } from "../helpers/server";
import { spanBatch } from "../helpers/span-batches";
import { postBatch as post } from "../helpers/storage-probe";

// A SQLite node killed (SIGKILL) mid-ingest loses nothing it acknowledged, and what it stored stays
// whole: each batch is all there or absent, and the rollups and issues equal a recount of the spans.
// The ingest transaction's journal settings (db/store/sqlite-store.ts) must keep this. Runs in the
// api project only; two-nodes.test.ts kills a PostgreSQL node.
const onSqlite = inject("serverDialect") === "sqlite";

const batch = (n: number) => spanBatch(n, { service: "sqlite-kill", code: (n, i) => `code_${(n + i) % 7}` });

describe.skipIf(!onSqlite)("a SQLite node killed mid-ingest", () => {
  const nodes: TestServer[] = [];
  afterAll(async () => {
    for (const node of nodes.reverse()) await node.stop();
  });

  it("keeps every acknowledged batch, whole batches only, and rollups and issues equal to a recount", async () => {
    const first = await startServer();
    nodes.push(first);
    const acknowledged: number[] = [];
    const inflight: Promise<void>[] = [];
    let n = 0;
    let pending = 0;
    let answered: () => void = () => undefined;
    // Four requests in flight; killed once 8 are acknowledged, while others are still being written.
    for (; n < 400 && acknowledged.length < 8; n++) {
      const sent = n;
      pending++;
      inflight.push(
        post(first, batch(sent))
          .then((res) => void (res.ok && acknowledged.push(sent)), () => undefined)
          .finally(() => {
            pending--;
            answered();
          }),
      );
      if (pending >= 4) await new Promise<void>((resolve) => (answered = resolve));
    }
    first.kill();
    await Promise.all(inflight);
    expect(acknowledged.length).toBeGreaterThanOrEqual(8);

    const spansOf = async (b: number) => (await first.store.get<{ n: number }>("SELECT count(*) AS n FROM tool_call_spans WHERE project_id = 'default' AND span_id LIKE ?", [`b${b}-s%`]))!.n;
    for (const b of acknowledged) expect(await spansOf(b), `batch ${b}`).toBe(60);
    for (let b = 0; b < n; b++) if (!acknowledged.includes(b)) expect([0, 60], `batch ${b}`).toContain(await spansOf(b));

    const perTool = await first.store.all("SELECT tool, sum(spans) AS spans, sum(first_attempts) AS first FROM span_rollups_hourly WHERE project_id = 'default' GROUP BY tool ORDER BY tool");
    const rawPerTool = await first.store.all(
      "SELECT tool, count(*) AS spans, sum(CASE WHEN attempt = 1 THEN 1 ELSE 0 END) AS first FROM tool_call_spans WHERE project_id = 'default' GROUP BY tool ORDER BY tool",
    );
    expect(perTool).toEqual(rawPerTool);
    const issues = await first.store.all("SELECT tool, code, failures FROM issues WHERE project_id = 'default' ORDER BY tool, code");
    const rawIssues = await first.store.all(
      `SELECT tool, code, count(*) AS failures FROM tool_call_spans WHERE project_id = 'default' AND outcome IN (${ISSUE_OUTCOMES.map(() => "?").join(", ")})
         GROUP BY tool, code ORDER BY tool, code`,
      [...ISSUE_OUTCOMES],
    );
    expect(issues).toEqual(rawIssues);
    expect(issues.length).toBeGreaterThan(0);

    // The next node on the same file recovers it and ingests.
    const next = await startServer({ sqliteDir: path.dirname(first.dbPath) });
    nodes.push(next);
    expect((await post(next, batch(1000))).status).toBe(200);
    expect(await spansOf(1000)).toBe(60);
  }, 180_000);
});
