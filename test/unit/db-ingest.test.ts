import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ingestNativeBatch } from "../helpers/ingest";
import { DIALECTS, openTestStore } from "../helpers/stores";
import { emptyRowBatch, type RunRow } from "@/lib/ingest/rows";
import { writeRows } from "@/db/ingest/write-rows";
import { createKey, ensureDefaultProject, listKeys, revokeKey, verifyKey } from "@/db/keys";

const H = Date.UTC(2026, 10, 1, 12, 0, 0);

const resource = { service: "support-agent", release: "2026.11.3", sdk: { name: "faultline-runtime", version: "0.1.0" } };
const span = (id: string, attempt: number, over: Record<string, unknown> = {}) => ({
  type: "tool_call_span",
  id,
  run_id: "run-1",
  call_id: "toolu_01",
  tool: "cancel_booking",
  attempt,
  started_at: H + attempt * 1000,
  ended_at: H + attempt * 1000 + 100,
  outcome: "failed",
  code: "upstream_unavailable",
  error_class: "ToolFailure",
  retryable: true,
  retry_after_ms: 2000,
  backoff_ms: 2500,
  decision: "retried",
  ...over,
});

describe.each(DIALECTS)("ingest on real migrations (%s)", (dialect) => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await store.run("INSERT INTO projects (id, name, created_at) VALUES ('default', 'Default project', 0)");
  });
  afterEach(async () => {
    await store.close();
  });
  const all = (sql: string) => store.all<Record<string, unknown>>(sql);

  it("stores spans and maintains rollups, histograms, the codes catalogue and run counters", async () => {
    const result = await ingestNativeBatch(store, "default", resource, [
      span("s1", 1),
      span("s2", 2),
      span("s3", 3, { outcome: "ok", code: null, error_class: null, retryable: null, retry_after_ms: null, backoff_ms: null, decision: null }),
      span("s4", 1, { call_id: "toolu_02", tool: "lookup", outcome: "refused", code: "not_permitted", error_class: "ToolNotPermittedError", retryable: false, retry_after_ms: null, backoff_ms: null, decision: "surfaced" }),
    ]);
    expect(result).toEqual({ accepted: 4, duplicates: 0, rejected: [] });

    expect(await all("SELECT tool, code, outcome, spans, first_attempts, second_attempts, retry_attempts, max_attempt, retry_after_count, retry_after_sum_ms, backoff_count, backoff_sum_ms, duration_sum_ms FROM span_rollups_hourly ORDER BY tool, code, outcome")).toEqual([
      { tool: "cancel_booking", code: "", outcome: "ok", spans: 1, first_attempts: 0, second_attempts: 0, retry_attempts: 1, max_attempt: 3, retry_after_count: 0, retry_after_sum_ms: 0, backoff_count: 0, backoff_sum_ms: 0, duration_sum_ms: 100 },
      { tool: "cancel_booking", code: "upstream_unavailable", outcome: "failed", spans: 2, first_attempts: 1, second_attempts: 1, retry_attempts: 1, max_attempt: 2, retry_after_count: 2, retry_after_sum_ms: 4000, backoff_count: 2, backoff_sum_ms: 5000, duration_sum_ms: 200 },
      { tool: "lookup", code: "not_permitted", outcome: "refused", spans: 1, first_attempts: 1, second_attempts: 0, retry_attempts: 0, max_attempt: 1, retry_after_count: 0, retry_after_sum_ms: 0, backoff_count: 0, backoff_sum_ms: 0, duration_sum_ms: 100 },
    ]);
    // The six-hourly rollups hold the same sums under the period start.
    expect(await all('SELECT hour, sum(spans) AS spans, sum(first_attempts) AS calls, max(max_attempt) AS "maxAttempt" FROM span_rollups_6h GROUP BY hour')).toEqual([
      { hour: H, spans: 4, calls: 2, maxAttempt: 3 },
    ]);
    const ATTEMPTS = "SELECT tool, attempt, spans FROM %s ORDER BY tool, attempt";
    expect(await all(ATTEMPTS.replace("%s", "attempt_counts_hourly"))).toEqual([
      { tool: "cancel_booking", attempt: 1, spans: 1 },
      { tool: "cancel_booking", attempt: 2, spans: 1 },
      { tool: "cancel_booking", attempt: 3, spans: 1 },
      { tool: "lookup", attempt: 1, spans: 1 },
    ]);
    expect(await all(ATTEMPTS.replace("%s", "attempt_counts_6h"))).toEqual(await all(ATTEMPTS.replace("%s", "attempt_counts_hourly")));
    expect(await all("SELECT tool, kind, bucket_ms, count FROM delay_histograms_hourly ORDER BY kind, tool, bucket_ms")).toEqual([
      { tool: "cancel_booking", kind: "backoff", bucket_ms: 3000, count: 2 },
      { tool: "cancel_booking", kind: "retry_after", bucket_ms: 2000, count: 2 },
    ]);
    expect(await all("SELECT code, tool, release, error_class, retryable, first_seen, last_seen, spans, errors FROM codes ORDER BY code, tool")).toEqual([
      { code: "not_permitted", tool: "lookup", release: "2026.11.3", error_class: "ToolNotPermittedError", retryable: 0, first_seen: H + 1000, last_seen: H + 1000, spans: 1, errors: 0 },
      { code: "upstream_unavailable", tool: "cancel_booking", release: "2026.11.3", error_class: "ToolFailure", retryable: 1, first_seen: H + 1000, last_seen: H + 2000, spans: 2, errors: 0 },
    ]);
    expect(await all("SELECT tool, run_id FROM run_tools ORDER BY tool, run_id")).toEqual([
      { tool: "cancel_booking", run_id: "run-1" },
      { tool: "lookup", run_id: "run-1" },
    ]);
    expect(await all("SELECT source, spans, no_outcome, non_ok, no_code, no_attempt, no_release FROM conformance_counts")).toEqual([
      { source: "native", spans: 4, no_outcome: 0, non_ok: 3, no_code: 0, no_attempt: 0, no_release: 0 },
    ]);
    expect(await all("SELECT run_id, attempts, calls, retries, failed_attempts, declined, refused, errors, first_started_at, last_ended_at FROM run_stats")).toEqual([
      { run_id: "run-1", attempts: 4, calls: 2, retries: 2, failed_attempts: 3, declined: 0, refused: 1, errors: 0, first_started_at: H + 1000, last_ended_at: H + 3100 },
    ]);
  });

  it("sums hourly rows of one six-hour period into one six-hourly row", async () => {
    const later = { started_at: H + 2 * 3_600_000, ended_at: H + 2 * 3_600_000 + 50 };
    await ingestNativeBatch(store, "default", resource, [span("s1", 1), span("s2", 2, later), span("s3", 1, { ...later, started_at: H + 7 * 3_600_000, ended_at: H + 7 * 3_600_000 + 5 })]);
    expect(await all("SELECT hour, spans, max_attempt, backoff_sum_ms FROM span_rollups_hourly ORDER BY hour")).toEqual([
      { hour: H, spans: 1, max_attempt: 1, backoff_sum_ms: 2500 },
      { hour: H + 2 * 3_600_000, spans: 1, max_attempt: 2, backoff_sum_ms: 2500 },
      { hour: H + 7 * 3_600_000, spans: 1, max_attempt: 1, backoff_sum_ms: 2500 },
    ]);
    expect(await all("SELECT hour, spans, max_attempt, backoff_sum_ms FROM span_rollups_6h ORDER BY hour")).toEqual([
      { hour: H, spans: 2, max_attempt: 2, backoff_sum_ms: 5000 },
      { hour: H + 6 * 3_600_000, spans: 1, max_attempt: 1, backoff_sum_ms: 2500 },
    ]);
    expect(await all("SELECT hour, kind, bucket_ms, count FROM delay_histograms_6h WHERE kind = 'backoff' ORDER BY hour")).toEqual([
      { hour: H, kind: "backoff", bucket_ms: 3000, count: 2 },
      { hour: H + 6 * 3_600_000, kind: "backoff", bucket_ms: 3000, count: 1 },
    ]);
  });

  it("counts spans without an attempt number apart, so they can be counted as calls", async () => {
    const batch = emptyRowBatch();
    const base = { traceId: null, parentSpanId: null, runId: "r", tool: "t", toolVersion: null, release: null, service: null, environment: null,
      sdkName: null, sdkVersion: null, startedAt: H, startedSubNs: null, endedAt: H + 5, outcome: "ok", code: null, errorClass: null, retryable: null,
      retryAfterMs: null, backoffMs: null, decision: null, permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "otlp" };
    batch.spans.push({ index: 0, row: { ...base, spanId: "a", callId: "c1", attempt: null } }, { index: 1, row: { ...base, spanId: "b", callId: "c2", attempt: null } });
    await writeRows(store, "default", batch);
    expect(await all("SELECT spans, first_attempts, unnumbered FROM span_rollups_hourly")).toEqual([{ spans: 2, first_attempts: 0, unnumbered: 2 }]);
    expect(await all("SELECT spans, first_attempts, unnumbered FROM span_rollups_6h")).toEqual([{ spans: 2, first_attempts: 0, unnumbered: 2 }]);
    expect(await all("SELECT count(*) AS n FROM attempt_counts_hourly")).toEqual([{ n: 0 }]);
  });

  it("stores a record once: replays are duplicates and leave every counter unchanged", async () => {
    const batch = [span("s1", 1), { type: "tool_error", id: "e1", run_id: "run-1", call_id: "toolu_01", tool: "cancel_booking", code: "upstream_unavailable", error_class: "ToolFailure", retryable: true, attempts: 3, decision: "exhausted", told: "upstream unavailable", occurred_at: H + 5000 }];
    expect(await ingestNativeBatch(store, "default", resource, batch)).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    const snapshot = () =>
      Promise.all([
        all("SELECT * FROM span_rollups_hourly ORDER BY hour, tool, code, outcome"),
        all("SELECT * FROM error_rollups_hourly ORDER BY hour, tool, code"),
        all("SELECT * FROM codes ORDER BY code, tool, retryable"),
        all("SELECT * FROM run_stats ORDER BY run_id"),
        all("SELECT count(*) n FROM tool_call_spans"),
      ]);
    const before = await snapshot();
    expect(await ingestNativeBatch(store, "default", resource, batch)).toEqual({ accepted: 2, duplicates: 2, rejected: [] });
    expect(await snapshot()).toEqual(before);
    expect(await all("SELECT errors, attempts_sum, retryable_count, decision FROM error_rollups_hourly")).toEqual([{ errors: 1, attempts_sum: 3, retryable_count: 1, decision: "exhausted" }]);
  });

  it("counts a record id repeated within one batch as a duplicate after its first", async () => {
    const batch = [span("s1", 1), span("s1", 1, { outcome: "ok" }), span("s2", 2), span("s2", 2)];
    expect(await ingestNativeBatch(store, "default", resource, batch)).toEqual({ accepted: 4, duplicates: 2, rejected: [] });
    expect(await all("SELECT span_id, outcome FROM tool_call_spans ORDER BY span_id")).toEqual([
      { span_id: "s1", outcome: "failed" },
      { span_id: "s2", outcome: "failed" },
    ]);
    expect(await all("SELECT sum(spans) AS spans FROM span_rollups_hourly")).toEqual([{ spans: 2 }]);
  });

  it("keeps projects apart: the same ids in another project are new records", async () => {
    await store.run("INSERT INTO projects (id, name, created_at) VALUES ('other', 'Other', 0)");
    await ingestNativeBatch(store, "default", resource, [span("s1", 1)]);
    expect(await ingestNativeBatch(store, "other", resource, [span("s1", 1)])).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect(await all("SELECT project_id, count(*) n FROM tool_call_spans GROUP BY project_id ORDER BY project_id")).toEqual([
      { project_id: "default", n: 1 },
      { project_id: "other", n: 1 },
    ]);
  });

  it("merges later run records into one run and never lets an older record undo a final state", async () => {
    const run = (id: string, over: Record<string, unknown>) => ({ type: "run", id, run_id: "run-1", agent: "support-agent", started_at: H, state: "running", ...over });
    await ingestNativeBatch(store, "default", resource, [run("r-start", {})]);
    await ingestNativeBatch(store, "default", resource, [run("r-end", { state: "failed", ended_at: H + 9000, deadline_at: H + 30000, max_tool_attempts: 12 })]);
    expect(await ingestNativeBatch(store, "default", resource, [run("r-start", {})])).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect(await ingestNativeBatch(store, "default", resource, [run("r-start", {})])).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
    expect(await all("SELECT run_id, attempts, first_started_at, last_ended_at FROM run_stats")).toEqual([{ run_id: "run-1", attempts: 0, first_started_at: H, last_ended_at: H + 9000 }]);
    expect(await all("SELECT run_id, state, started_at, ended_at, deadline_at, max_tool_attempts, release FROM runs")).toEqual([
      { run_id: "run-1", state: "failed", started_at: H, ended_at: H + 9000, deadline_at: H + 30000, max_tool_attempts: 12, release: "2026.11.3" },
    ]);
  });

  it("applies several records of one run in one batch in order, each counted as if sent alone", async () => {
    const run = (id: string, over: Record<string, unknown>) => ({ type: "run", id, run_id: "run-1", agent: "support-agent", started_at: H, state: "running", ...over });
    const end = run("r-end", { state: "failed", ended_at: H + 9000 });
    // start, end, a replay of the end (no change), the start again (merges: counted), another run.
    const result = await ingestNativeBatch(store, "default", resource, [run("r-start", {}), end, end, run("r-start", { started_at: H - 500 }), run("r-other", { run_id: "run-2" })]);
    expect(result).toEqual({ accepted: 5, duplicates: 1, rejected: [] });
    expect(await all("SELECT run_id, record_id, state, started_at, ended_at FROM runs ORDER BY run_id")).toEqual([
      { run_id: "run-1", record_id: "r-start", state: "failed", started_at: H - 500, ended_at: H + 9000 },
      { run_id: "run-2", record_id: "r-other", state: "running", started_at: H, ended_at: null },
    ]);
  });

  describe("a run record that carries no agent or start (an end event alone)", () => {
    const row = (recordId: string, over: Partial<RunRow>): RunRow => ({
      recordId, runId: "run-2", agent: null, release: null, service: null, environment: null, sdkName: null, sdkVersion: null,
      startedAt: null, endedAt: null, state: "running", deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "adk_published", ...over,
    });
    const start = row("e-start", { agent: "planner", release: "0.4.0", startedAt: H + 1000 });
    const end = row("e-end", { state: "completed", endedAt: H + 9000 });
    const write = (r: RunRow) => writeRows(store, "default", { runs: [{ index: 0, row: r }], spans: [], toolErrors: [] }, H + 10_000);
    const RUN = "SELECT run_id, record_id, agent, release, state, started_at, ended_at FROM runs";
    const STATS = "SELECT run_id, attempts, first_started_at, last_ended_at FROM run_stats";
    const merged = { run_id: "run-2", agent: "planner", release: "0.4.0", state: "completed", started_at: H + 1000, ended_at: H + 9000 };

    it("is stored with agent and start unknown and ordered at its end", async () => {
      expect(await write(end)).toEqual({ duplicateIndexes: [], stored: 1 });
      expect(await all(RUN)).toEqual([{ run_id: "run-2", record_id: "e-end", agent: null, release: null, state: "completed", started_at: null, ended_at: H + 9000 }]);
      expect(await all(STATS)).toEqual([{ run_id: "run-2", attempts: 0, first_started_at: H + 9000, last_ended_at: H + 9000 }]);
      expect(await write(end)).toEqual({ duplicateIndexes: [0], stored: 0 });
    });

    it("arriving before its start: the start fills agent and start and does not undo the final state", async () => {
      await write(end);
      expect(await write(start)).toEqual({ duplicateIndexes: [], stored: 1 });
      expect(await all(RUN)).toEqual([{ ...merged, record_id: "e-start" }]);
      expect(await all(STATS)).toEqual([{ run_id: "run-2", attempts: 0, first_started_at: H + 1000, last_ended_at: H + 9000 }]);
      expect(await write(start)).toEqual({ duplicateIndexes: [0], stored: 0 });
      expect(await all(RUN)).toEqual([{ ...merged, record_id: "e-start" }]);
    });

    it("arriving after its start: agent and start are kept, the end and final state are taken", async () => {
      await write(start);
      expect(await all(RUN)).toEqual([{ run_id: "run-2", record_id: "e-start", agent: "planner", release: "0.4.0", state: "running", started_at: H + 1000, ended_at: null }]);
      expect(await write(end)).toEqual({ duplicateIndexes: [], stored: 1 });
      expect(await all(RUN)).toEqual([{ ...merged, record_id: "e-end" }]);
      expect(await all(STATS)).toEqual([{ run_id: "run-2", attempts: 0, first_started_at: H + 1000, last_ended_at: H + 9000 }]);
      // An earlier start from another record lowers the start; a later one does not raise it.
      await write(row("e-start-2", { startedAt: H + 500 }));
      await write(row("e-start-3", { startedAt: H + 2000 }));
      expect(await all(RUN)).toEqual([{ ...merged, record_id: "e-start-3", started_at: H + 500 }]);
    });
  });

  it("scrubs told texts and messages at ingest but never ids", async () => {
    const secretId = "run-deadbeefdeadbeefdeadbeefdeadbeef00";
    await ingestNativeBatch(store, "default", resource, [
      { type: "tool_error", id: "e1", run_id: secretId, call_id: "toolu_01", tool: "t", code: "c", error_class: "ToolFailure", retryable: false, attempts: 1, decision: "surfaced", told: "failed for alice@example.com with Bearer abc.def.ghi", occurred_at: H },
    ]);
    const row = (await store.get<{ run_id: string; told: string }>("SELECT run_id, told FROM tool_errors"))!;
    expect(row.run_id).toBe(secretId);
    expect(row.told).not.toContain("alice@example.com");
    expect(row.told).not.toContain("abc.def.ghi");
    expect(row.told.startsWith("failed for ")).toBe(true);
  });

  it("stores the valid records of a mixed batch and reports the others by index", async () => {
    const result = await ingestNativeBatch(store, "default", resource, [span("s1", 1), { type: "nope" }, span("s2", 0)]);
    expect(result.accepted).toBe(1);
    expect(result.rejected.map((r) => [r.index, r.id, r.code])).toEqual([
      [1, null, "unknown_type"],
      [2, "s2", "invalid_record"],
    ]);
    expect(await all("SELECT span_id FROM tool_call_spans")).toEqual([{ span_id: "s1" }]);
  });

  it("writes nothing of a batch that fails part-way (all or nothing)", async () => {
    const batch = emptyRowBatch();
    const ok = { traceId: null, parentSpanId: null, runId: "r", callId: "c", tool: "t", toolVersion: null, release: null, service: null, environment: null,
      sdkName: null, sdkVersion: null, attempt: 1, startedAt: H, startedSubNs: null, endedAt: H + 5, outcome: "ok", code: null, errorClass: null, retryable: null,
      retryAfterMs: null, backoffMs: null, decision: null, permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "native" };
    batch.spans.push({ index: 0, row: { ...ok, spanId: "good" } });
    // A NOT NULL column left null fails the run insert after the span was written.
    batch.runs.push({ index: 1, row: { recordId: "x", runId: "r", agent: null, release: null, service: null, environment: null, sdkName: null, sdkVersion: null,
      startedAt: H, endedAt: null, state: null as unknown as string, deadlineAt: null, maxToolAttempts: null, error: null, unansweredToolUses: null, traceId: null, spanId: null, source: "native" } });
    await expect(writeRows(store, "default", batch)).rejects.toThrow();
    expect(await all("SELECT count(*) AS n FROM tool_call_spans")).toEqual([{ n: 0 }]);
    expect(await all("SELECT count(*) AS n FROM span_rollups_hourly")).toEqual([{ n: 0 }]);
  });

  describe("keys", () => {
    it("creates a project and key once, verifies, lists without secrets, and revokes", async () => {
      expect(await ensureDefaultProject(store)).toBeNull();
      const { key, prefix } = await createKey(store, "default", "ci");
      expect(key).toMatch(/^flk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
      expect(key.startsWith(prefix)).toBe(true);
      expect(await verifyKey(store, key)).toEqual({ projectId: "default", scope: "ingest", archived: false });
      expect(await verifyKey(store, key.slice(0, -1) + (key.endsWith("A") ? "B" : "A"))).toBeNull();
      expect(await verifyKey(store, "Bearer " + key)).toBeNull();
      const listed = await listKeys(store, "default");
      expect(listed).toHaveLength(1);
      expect(JSON.stringify(listed)).not.toContain(key.slice(prefix.length + 1));
      expect(listed[0]?.lastUsedAt).not.toBeNull();
      const stored = await store.get<{ hash: string }>("SELECT hash FROM api_keys WHERE prefix = ?", [prefix]);
      expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await revokeKey(store, prefix)).toBe(true);
      expect(await revokeKey(store, prefix)).toBe(false);
      expect(await verifyKey(store, key)).toBeNull();
    });
  });
});
