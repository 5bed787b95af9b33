import { afterEach, describe, expect, it } from "vitest";
import { openPgStore, type Store } from "@/db/client";
import { issueId } from "@/lib/triage/issue-batch";
import { ingestNativeBatch } from "@/test/helpers/ingest";
import { DIALECTS, TEST_PG_URL, createTestDatabase, openTestStore } from "@/test/helpers/stores";

// Records must lie within the accepted window: a fixed hour five days ago.
const T = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 5 * 86_400_000;
const P = "p";

let n = 0;
/** One attempt of a call, in the given release (tool version). */
function span(over: { run?: string; tool?: string; code?: string | null; outcome?: string; version?: string; at?: number; decision?: string; backoff?: number }) {
  const i = n++;
  const at = over.at ?? T + i * 1000;
  return {
    type: "tool_call_span", id: `s-${i}`, run_id: over.run ?? "run-1", call_id: `c-${i}`, tool: over.tool ?? "book_flight",
    tool_version: over.version ?? "1.4.0", attempt: 1, started_at: at, ended_at: at + 10, outcome: over.outcome ?? "failed",
    code: over.code === undefined ? "upstream_unavailable" : over.code, decision: over.decision ?? null, backoff_ms: over.backoff ?? null,
  };
}

async function projectStore(store: Store): Promise<Store> {
  await store.run("INSERT INTO projects (id, name, created_at) VALUES (?, 'P', 0)", [P]);
  return store;
}

const issueRows = (store: Store) =>
  store.all("SELECT tool, code, state, failures, unrecovered, retries, wait_ms AS \"waitMs\", runs, worst_hour AS \"worstHour\" FROM issues WHERE project_id = ? ORDER BY tool, code", [P]);
const events = (store: Store, id: string) => store.all("SELECT kind, detail, actor_label AS \"actor\" FROM issue_events WHERE project_id = ? AND issue_id = ? ORDER BY id", [P, id]);

describe.each(DIALECTS)("issues kept at ingest (%s)", (dialect) => {
  let store: Store;
  afterEach(async () => {
    await store?.close();
  });

  it("opens one issue per failing code per tool, never for declines, oks or cancellations", async () => {
    store = await projectStore(await openTestStore(dialect));
    const first = span({ decision: "retried", backoff: 250 });
    await ingestNativeBatch(store, P, undefined, [
      first,
      span({ decision: "exhausted" }),
      span({ run: "run-2", decision: "retried", backoff: 500 }),
      span({ outcome: "timed_out", code: null }),
      span({ tool: "search", outcome: "refused", code: "not_permitted", decision: "failed_closed" }),
      span({ outcome: "declined", code: "no_seats" }),
      span({ outcome: "ok", code: null }),
      span({ outcome: "cancelled", code: null }),
    ]);
    expect(await issueRows(store)).toEqual([
      { tool: "book_flight", code: "timed_out", state: "open", failures: 1, unrecovered: 0, retries: 0, waitMs: 0, runs: 1, worstHour: 1 },
      { tool: "book_flight", code: "upstream_unavailable", state: "open", failures: 3, unrecovered: 1, retries: 2, waitMs: 750, runs: 2, worstHour: 3 },
      { tool: "search", code: "not_permitted", state: "open", failures: 1, unrecovered: 1, retries: 0, waitMs: 0, runs: 1, worstHour: 1 },
    ]);
    const id = issueId(P, "book_flight", "upstream_unavailable");
    expect(await events(store, id)).toEqual([{ kind: "created", detail: "first failed in 1.4.0", actor: "ingest" }]);
    // A re-delivered batch is a duplicate: it moves nothing.
    await ingestNativeBatch(store, P, undefined, [first]);
    expect((await issueRows(store))[1]).toMatchObject({ failures: 3, runs: 2 });
  });

  it("resolved in the next release: a failure in the same release keeps it resolved, one in a later release regresses it", async () => {
    store = await projectStore(await openTestStore(dialect));
    const id = issueId(P, "book_flight", "upstream_unavailable");
    await ingestNativeBatch(store, P, undefined, [span({ version: "1.4.0" }), span({ version: "1.4.1" })]);
    await store.run("UPDATE issues SET state = 'resolved', resolve_mode = 'next_release', resolve_release = '1.4.1', resolved_at = ? WHERE id = ?", [T, id]);
    await ingestNativeBatch(store, P, undefined, [span({ version: "1.4.1", at: T + 3_600_000 })]);
    expect(await store.get("SELECT state, failures, worst_hour AS \"worstHour\" FROM issues WHERE id = ?", [id])).toEqual({ state: "resolved", failures: 3, worstHour: 2 });
    await ingestNativeBatch(store, P, undefined, [span({ version: "1.5.0", at: T + 3_600_000 + 1 })]);
    expect(await store.get("SELECT state, failures, worst_hour AS \"worstHour\" FROM issues WHERE id = ?", [id])).toEqual({ state: "regressed", failures: 4, worstHour: 2 });
    expect(await events(store, id)).toEqual([
      { kind: "created", detail: "first failed in 1.4.0", actor: "ingest" },
      { kind: "regressed", detail: "failed again in 1.5.0 after it was resolved in the release after 1.4.1", actor: "ingest" },
    ]);
    expect(await store.all("SELECT release, failures FROM issue_releases WHERE issue_id = ? ORDER BY release", [id])).toEqual([
      { release: "1.4.0", failures: 1 }, { release: "1.4.1", failures: 2 }, { release: "1.5.0", failures: 1 },
    ]);
  });

  it("an ignore until N more failures ends at the Nth, with an event", async () => {
    store = await projectStore(await openTestStore(dialect));
    const id = issueId(P, "book_flight", "upstream_unavailable");
    await ingestNativeBatch(store, P, undefined, [span({})]);
    await store.run("UPDATE issues SET state = 'ignored', ignore_mode = 'until_count', ignore_limit = 3 WHERE id = ?", [id]);
    await ingestNativeBatch(store, P, undefined, [span({})]);
    expect(await store.get("SELECT state FROM issues WHERE id = ?", [id])).toEqual({ state: "ignored" });
    await ingestNativeBatch(store, P, undefined, [span({})]);
    expect(await store.get("SELECT state, ignore_mode AS \"mode\" FROM issues WHERE id = ?", [id])).toEqual({ state: "open", mode: null });
    expect((await events(store, id)).at(-1)).toEqual({ kind: "unignored", detail: "reached 3 failures", actor: "ingest" });
  });
});

// 16 transactions that lock the same issue rows commit one after the other, on a database made for
// the test: the test awaits every batch's commit, which on a busy 2-core machine can take far more
// than vitest's default 5 s, so it gets a minute.
const TWO_NODE_TIMEOUT_MS = 60_000;

describe.skipIf(!TEST_PG_URL)("issues created once across two nodes (postgres)", () => {
  it("concurrent batches on two pools create each issue exactly once, with every failure counted", async () => {
    const db = await createTestDatabase();
    const nodes = [await openPgStore(db.url, { poolMax: 4, migrate: false }), await openPgStore(db.url, { poolMax: 4, migrate: false })];
    try {
      await projectStore(nodes[0]!);
      const tools = ["a", "b", "c", "d"];
      // 16 batches, each failing on every tool (in a different order), half on each node, all at once.
      await Promise.all(
        Array.from({ length: 16 }, (_, b) =>
          ingestNativeBatch(nodes[b % 2]!, P, undefined, (b % 2 ? [...tools].reverse() : tools).map((tool) => span({ tool, run: `run-${b}` }))),
        ),
      );
      const rows = await nodes[0]!.all("SELECT tool, failures, runs FROM issues WHERE project_id = ? ORDER BY tool", [P]);
      expect(rows).toEqual(tools.map((tool) => ({ tool, failures: 16, runs: 16 })));
      expect(await nodes[1]!.all("SELECT kind, count(*) AS n FROM issue_events GROUP BY kind")).toEqual([{ kind: "created", n: 4 }]);
    } finally {
      for (const s of nodes) await s.close();
      await db.drop();
    }
  }, TWO_NODE_TIMEOUT_MS);
});
