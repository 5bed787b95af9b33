import { afterEach, describe, expect, it } from "vitest";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { emptyRowBatch } from "@/lib/ingest/rows";
import { DIALECTS } from "../../helpers/stores";
import { Scenario, T0 } from "./scenario";

describe.each(DIALECTS)("incremental drift refresh (%s)", (dialect) => {
  let s: Scenario;
  afterEach(async () => {
    await s.store.close();
  });
  const open = async () => (s = await Scenario.open(dialect));

  const sigRows = () =>
    s.store.all("SELECT code, tool, release, release_kind, spans, errors, calls, recovered FROM drift_signatures ORDER BY code, release");
  const refresh = () => refreshDrift(s.store, "default", T0);

  it("folds only new rows, never double-counts, and updates findings as data arrives", async () => {
    await open();
    s.failing(40, { tool: "search", toolVersion: "1.3.0", code: "upstream_timeout", retryable: true }).ok(60, { tool: "search", toolVersion: "1.3.0" });
    await s.settled();
    expect(await refresh()).toEqual({ spans: 100, errors: 40, findingsRecomputed: true });
    expect(await s.findings()).toEqual([]);
    // Nothing new: no work, findings untouched.
    expect(await refresh()).toEqual({ spans: 0, errors: 0, findingsRecomputed: false });

    await s.failing(38, { tool: "search", toolVersion: "1.4.0", code: "upstream_timeout", retryable: false, day: 1 }).settled();
    expect(await refresh()).toEqual({ spans: 38, errors: 38, findingsRecomputed: true });
    expect((await s.findings()).map((f) => [f.kind, f.beforeCalls, f.afterCalls])).toEqual([["repurposed", 40, 38]]);

    s.failing(10, { tool: "search", toolVersion: "1.4.0", code: "upstream_timeout", retryable: false, day: 1 });
    const [finding] = await s.findings();
    expect([finding!.beforeCalls, finding!.afterCalls]).toEqual([40, 48]);
    expect(finding!.sentence).toContain("in 1.4.0 (48 calls)");
    expect(await sigRows()).toEqual([
      { code: "upstream_timeout", tool: "search", release: "1.3.0", release_kind: "tool_version", spans: 40, errors: 40, calls: 40, recovered: 0 },
      { code: "upstream_timeout", tool: "search", release: "1.4.0", release_kind: "tool_version", spans: 48, errors: 48, calls: 48, recovered: 0 },
    ]);
    expect(await s.store.all("SELECT release, first_attempts, spans, errors FROM drift_tool_releases ORDER BY release")).toEqual([
      { release: "1.3.0", first_attempts: 100, spans: 100, errors: 40 },
      { release: "1.4.0", first_attempts: 48, spans: 48, errors: 48 },
    ]);
  });

  it("duplicates re-sent by a client change nothing", async () => {
    await open();
    const batch = emptyRowBatch();
    const spec = { tool: "search", toolVersion: "1.0.0" };
    batch.spans.push({ index: 0, row: s.span("r1", "c1", 1, T0, spec, { outcome: "failed", code: "boom", errorClass: "ToolFailure", retryable: true }) });
    batch.spans.push({ index: 1, row: s.span("r1", "c1", 2, T0 + 10, spec, { outcome: "ok" }) });
    await s.write(batch);
    await refresh();
    await s.write(batch);
    expect(await refresh()).toEqual({ spans: 0, errors: 0, findingsRecomputed: false });
    expect(await sigRows()).toEqual([{ code: "boom", tool: "search", release: "1.0.0", release_kind: "tool_version", spans: 1, errors: 0, calls: 1, recovered: 1 }]);
  });

  it("recovery is counted once per call whichever order the attempts arrive in, across refreshes", async () => {
    await open();
    const spec = { tool: "search", toolVersion: "1.0.0" };
    const fail = (run: string, attempt: number) =>
      s.span(run, `${run}-c`, attempt, T0 + attempt * 100, spec, { outcome: "failed", code: "boom", errorClass: "ToolFailure", retryable: true });
    const ok = (run: string, attempt: number) => s.span(run, `${run}-c`, attempt, T0 + attempt * 100, spec, { outcome: "ok" });
    const write = (...rows: ReturnType<typeof ok>[]) => {
      const b = emptyRowBatch();
      rows.forEach((row, index) => b.spans.push({ index, row }));
      return s.write(b);
    };
    // r1: failure, refresh, then the successful retry arrives.
    await write(fail("r1", 1));
    await refresh();
    await write(ok("r1", 2));
    // r2: the successful retry arrives before the failure.
    await write(ok("r2", 2));
    await refresh();
    await write(fail("r2", 1));
    // r3: the code twice, then ok — one call, one recovery.
    await write(fail("r3", 1), fail("r3", 2), ok("r3", 3));
    // r4: the ok came first (attempt 1), the code later (attempt 2): not a recovery.
    await write(ok("r4", 1), fail("r4", 2));
    await refresh();
    expect(await sigRows()).toEqual([{ code: "boom", tool: "search", release: "1.0.0", release_kind: "tool_version", spans: 5, errors: 0, calls: 4, recovered: 3 }]);
    expect(await s.store.all("SELECT run_id, attempt, recovered FROM drift_calls ORDER BY run_id")).toEqual([
      { run_id: "r1", attempt: 1, recovered: 1 },
      { run_id: "r2", attempt: 1, recovered: 1 },
      { run_id: "r3", attempt: 1, recovered: 1 },
      { run_id: "r4", attempt: 2, recovered: 0 },
    ]);
  });

  it("projects are refreshed separately", async () => {
    await open();
    await s.store.run("INSERT INTO projects (id, name, created_at) VALUES ('other', 'other', 0)");
    await s.failing(3, { tool: "search", toolVersion: "1.0.0", code: "boom" }).settled();
    expect(await refreshDrift(s.store, "other", T0)).toEqual({ spans: 0, errors: 0, findingsRecomputed: true });
    expect(await refresh()).toEqual({ spans: 3, errors: 3, findingsRecomputed: true });
    const [first] = await s.store.all<{ pk: number }>("SELECT pk FROM tool_call_spans ORDER BY pk DESC LIMIT 1");
    expect(await s.store.all("SELECT project_id, span_watermark FROM drift_state ORDER BY project_id")).toEqual([
      { project_id: "default", span_watermark: first!.pk },
      { project_id: "other", span_watermark: 0 },
    ]);
  });
});
