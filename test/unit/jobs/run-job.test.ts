import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { ensurePartitions, listPartitions } from "@/db/partitions";
import { runJob } from "@/server/jobs/run-job";
import { ingestNativeBatch } from "../../helpers/ingest";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { Scenario } from "../drift/scenario";

const DAY = 86_400_000;

describe.each(DIALECTS)("background jobs (%s)", (dialect) => {
  let store: Store;
  afterEach(async () => {
    await store.close();
  });
  const open = async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  };

  it("folds a project's drift and recomputes its findings", async () => {
    await open();
    await new Scenario("default", store).failing(5, { tool: "search", toolVersion: "1.0.0", code: "boom" }).settled();
    expect(await runJob(store, { job: "drift-fold", projectId: "default" })).toEqual({ rows: 10 });
    expect(await store.get("SELECT calls FROM drift_signatures WHERE code = 'boom'")).toEqual({ calls: 5 });
    expect(await store.get("SELECT findings_computed_at IS NOT NULL AS computed FROM drift_state")).toEqual({ computed: dialect === "sqlite" ? 1 : true });
    expect(await runJob(store, { job: "drift-fold", projectId: "default" })).toEqual({ rows: 0 });
  });

  it("runs quick_check on SQLite only", async () => {
    await open();
    const outcome = await runJob(store, { job: "quick-check" });
    if (dialect === "sqlite") expect(outcome).toEqual({ rows: 0, detail: "ok" });
    else expect(outcome.skipped).toBeDefined();
  });

  it("keeps partitions ahead and drops expired days on PostgreSQL; prunes runs on both", async () => {
    await open();
    const now = Date.now();
    const partitions = await runJob(store, { job: "partitions", daysBack: 1 });
    if (dialect === "sqlite") expect(partitions.skipped).toBeDefined();
    else {
      expect(partitions.rows).toBe(2 * (1 + 1 + 14));
      // Past days are packed once their indexes are worth it: these are empty.
      expect(partitions.detail).toBe("0 closed daily partitions packed, 0 left for the next run");
    }
    const old = now - 40 * DAY;
    // The old run's day gets a partition of its own (a whole day for retention to drop).
    if (store.dialect === "postgres") expect(await ensurePartitions(store, old, 0, 0)).toBe(2);
    await ingestNativeBatch(store, "default", { release: "1.0.0" }, [
      { type: "run", id: "rec-old", run_id: "old", agent: "a", started_at: old, ended_at: old + 5000, state: "completed" },
      { type: "tool_call_span", id: "old-s", run_id: "old", call_id: "old-c", tool: "search", attempt: 1, started_at: old, ended_at: old + 10, outcome: "ok" },
      { type: "tool_call_span", id: "new-s", run_id: "new", call_id: "new-c", tool: "search", attempt: 1, started_at: now - DAY, ended_at: now - DAY + 10, outcome: "ok" },
    ]);
    const policy = { rawCutoffMs: now - 30 * DAY, maxSpans: 1e9, rollupCutoffMs: now - 400 * DAY };
    expect(await runJob(store, { job: "retention", policy })).toEqual({ rows: 1 });
    expect(await store.all("SELECT run_id FROM tool_call_spans")).toEqual([{ run_id: "new" }]);
    expect(await store.all("SELECT run_id FROM runs")).toEqual([]);
    if (store.dialect === "postgres") {
      const days = (await listPartitions(store)).filter((p) => p.table === "tool_call_spans" && p.fromMs !== null);
      expect(days.length).toBe(1 + 1 + 14);
      expect(days.every((p) => p.toMs! > policy.rawCutoffMs)).toBe(true);
    }
  }, 30_000);
});
