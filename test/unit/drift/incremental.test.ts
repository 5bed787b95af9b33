import { describe, expect, it } from "vitest";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { emptyRowBatch } from "@/lib/ingest/rows";
import { Scenario, T0 } from "./scenario";

const sigRows = (s: Scenario) =>
  s.store.sqlite.prepare("SELECT code, tool, release, release_kind, spans, errors, calls, recovered FROM drift_signatures ORDER BY code, release").all();

describe("incremental drift refresh", () => {
  it("folds only new rows, never double-counts, and updates findings as data arrives", () => {
    const s = new Scenario();
    s.failing(40, { tool: "search", toolVersion: "1.3.0", code: "upstream_timeout", retryable: true }).ok(60, { tool: "search", toolVersion: "1.3.0" });
    expect(refreshDrift(s.store, "default", T0)).toEqual({ spans: 100, errors: 40, findingsRecomputed: true });
    expect(s.findings()).toEqual([]);
    // Nothing new: no work, findings untouched.
    expect(refreshDrift(s.store, "default", T0)).toEqual({ spans: 0, errors: 0, findingsRecomputed: false });

    s.failing(38, { tool: "search", toolVersion: "1.4.0", code: "upstream_timeout", retryable: false, day: 1 });
    expect(refreshDrift(s.store, "default", T0)).toEqual({ spans: 38, errors: 38, findingsRecomputed: true });
    expect(s.findings().map((f) => [f.kind, f.beforeCalls, f.afterCalls])).toEqual([["repurposed", 40, 38]]);

    s.failing(10, { tool: "search", toolVersion: "1.4.0", code: "upstream_timeout", retryable: false, day: 1 });
    const [finding] = s.findings();
    expect([finding!.beforeCalls, finding!.afterCalls]).toEqual([40, 48]);
    expect(finding!.sentence).toContain("in 1.4.0 (48 calls)");
    expect(sigRows(s)).toEqual([
      { code: "upstream_timeout", tool: "search", release: "1.3.0", release_kind: "tool_version", spans: 40, errors: 40, calls: 40, recovered: 0 },
      { code: "upstream_timeout", tool: "search", release: "1.4.0", release_kind: "tool_version", spans: 48, errors: 48, calls: 48, recovered: 0 },
    ]);
    expect(s.store.sqlite.prepare("SELECT release, first_attempts, spans, errors FROM drift_tool_releases ORDER BY release").all()).toEqual([
      { release: "1.3.0", first_attempts: 100, spans: 100, errors: 40 },
      { release: "1.4.0", first_attempts: 48, spans: 48, errors: 48 },
    ]);
  });

  it("duplicates re-sent by a client change nothing", () => {
    const s = new Scenario();
    const batch = emptyRowBatch();
    const spec = { tool: "search", toolVersion: "1.0.0" };
    batch.spans.push({ index: 0, row: s.span("r1", "c1", 1, T0, spec, { outcome: "failed", code: "boom", errorClass: "ToolFailure", retryable: true }) });
    batch.spans.push({ index: 1, row: s.span("r1", "c1", 2, T0 + 10, spec, { outcome: "ok" }) });
    s.write(batch);
    refreshDrift(s.store, "default", T0);
    s.write(batch);
    expect(refreshDrift(s.store, "default", T0)).toEqual({ spans: 0, errors: 0, findingsRecomputed: false });
    expect(sigRows(s)).toEqual([{ code: "boom", tool: "search", release: "1.0.0", release_kind: "tool_version", spans: 1, errors: 0, calls: 1, recovered: 1 }]);
  });

  it("recovery is counted once per call whichever order the attempts arrive in, across refreshes", () => {
    const s = new Scenario();
    const spec = { tool: "search", toolVersion: "1.0.0" };
    const fail = (run: string, attempt: number) =>
      s.span(run, `${run}-c`, attempt, T0 + attempt * 100, spec, { outcome: "failed", code: "boom", errorClass: "ToolFailure", retryable: true });
    const ok = (run: string, attempt: number) => s.span(run, `${run}-c`, attempt, T0 + attempt * 100, spec, { outcome: "ok" });
    const write = (...rows: ReturnType<typeof ok>[]) => {
      const b = emptyRowBatch();
      rows.forEach((row, index) => b.spans.push({ index, row }));
      s.write(b);
    };
    // r1: failure, refresh, then the successful retry arrives.
    write(fail("r1", 1));
    refreshDrift(s.store, "default", T0);
    write(ok("r1", 2));
    // r2: the successful retry arrives before the failure.
    write(ok("r2", 2));
    refreshDrift(s.store, "default", T0);
    write(fail("r2", 1));
    // r3: the code twice, then ok — one call, one recovery.
    write(fail("r3", 1), fail("r3", 2), ok("r3", 3));
    // r4: the ok came first (attempt 1), the code later (attempt 2): not a recovery.
    write(ok("r4", 1), fail("r4", 2));
    refreshDrift(s.store, "default", T0);
    expect(sigRows(s)).toEqual([{ code: "boom", tool: "search", release: "1.0.0", release_kind: "tool_version", spans: 5, errors: 0, calls: 4, recovered: 3 }]);
    expect(s.store.sqlite.prepare("SELECT run_id, attempt, recovered FROM drift_calls ORDER BY run_id").all()).toEqual([
      { run_id: "r1", attempt: 1, recovered: 1 },
      { run_id: "r2", attempt: 1, recovered: 1 },
      { run_id: "r3", attempt: 1, recovered: 1 },
      { run_id: "r4", attempt: 2, recovered: 0 },
    ]);
  });

  it("projects are refreshed separately", () => {
    const s = new Scenario();
    s.store.sqlite.prepare("INSERT INTO projects (id, name, created_at) VALUES ('other', 'other', 0)").run();
    s.failing(3, { tool: "search", toolVersion: "1.0.0", code: "boom" });
    expect(refreshDrift(s.store, "other", T0)).toEqual({ spans: 0, errors: 0, findingsRecomputed: true });
    expect(refreshDrift(s.store, "default", T0)).toEqual({ spans: 3, errors: 3, findingsRecomputed: true });
    expect(s.store.sqlite.prepare("SELECT project_id, span_watermark FROM drift_state ORDER BY project_id").all()).toEqual([
      { project_id: "default", span_watermark: 3 },
      { project_id: "other", span_watermark: 0 },
    ]);
  });
});
