import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { projectExists } from "@/db/keys";
import { codeExists, SEARCH_SQL, searchProject, toolExists } from "@/db/queries/search";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "../../helpers/stores";

const T = Date.UTC(2026, 0, 10);
const base: SpanRow = {
  spanId: "", traceId: null, parentSpanId: null, startedSubNs: null, runId: "", callId: "", tool: "", toolVersion: null, release: "r1",
  service: "svc", environment: "prod", sdkName: null, sdkVersion: null, attempt: 1, startedAt: T, endedAt: T + 10,
  outcome: "ok", code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: null,
  permitted: true, abandoned: false, message: null, derived: null, argsHash: null, afterError: null, source: "native",
};

const PLAN_PARAMS = { project: "p", lo: "a", hi: "b", limit: 6, since: 0 };

describe.each(DIALECTS)("searchProject (%s)", (dialect) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "p");
    await createProject(store, "other", "other");
    const batch = emptyRowBatch();
    const spans: Partial<SpanRow>[] = [
      { runId: "run-alpha-1", tool: "cancel_booking", code: "upstream_unavailable", outcome: "failed", release: "2026.1.0" },
      { runId: "run-alpha-2", tool: "cancel_booking", release: "2026.1.1" },
      { runId: "run-beta", tool: "calendar_lookup", code: "upstream_timeout", outcome: "timed_out", release: "2026.1.1" },
      // Upper case sorts before lower case by code point on both engines.
      { runId: "Run-Gamma", tool: "Cancel_Upper" },
      // Many spans of one tool: the tool walk must still return it once.
      ...Array.from({ length: 50 }, (_, i) => ({ runId: `bulk-${i}`, tool: "cancel_booking" })),
      // A retried call sent out of order: its first attempt arrives last and started first.
      { runId: "job-call", callId: "tc_Retry", spanId: "retry-3", attempt: 3, startedAt: T + 300 },
      { runId: "job-call", callId: "tc_Retry", spanId: "retry-2", attempt: 2, startedAt: T + 200 },
      { runId: "job-call", callId: "tc_Retry", spanId: "retry-1", attempt: 1, startedAt: T + 100 },
      // One call id in two runs: two calls, two hits.
      { runId: "job-b", callId: "tc_shared", spanId: "shared-b" },
      { runId: "job-a", callId: "tc_shared", spanId: "shared-a" },
      // Without attempt numbers the earliest start is first; a numbered attempt goes before an
      // unnumbered one whatever their starts (NULLs sort at opposite ends on the two engines).
      { runId: "job-call", callId: "tc_unnumbered", spanId: "un-late", attempt: null, startedAt: T + 50 },
      { runId: "job-call", callId: "tc_unnumbered", spanId: "un-early", attempt: null, startedAt: T + 10 },
      { runId: "job-call", callId: "tc_mixed", spanId: "mixed-null", attempt: null, startedAt: T },
      { runId: "job-call", callId: "tc_mixed", spanId: "mixed-1", attempt: 1, startedAt: T + 5 },
    ];
    spans.forEach((s, i) => batch.spans.push({ index: i, row: { ...base, spanId: `s${i}`, callId: `c${i}`, ...s } }));
    await writeRows(store, "p", batch, T);
    const other = emptyRowBatch();
    other.spans.push({ index: 0, row: { ...base, spanId: "o1", callId: "o1", runId: "run-other", tool: "cancel_other" } });
    other.spans.push({ index: 1, row: { ...base, spanId: "o2", callId: "tc_shared", runId: "run-other", tool: "cancel_other" } });
    await writeRows(store, "other", other, T);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("finds runs, tools, codes and releases by prefix, within the project only", async () => {
    expect((await searchProject(store, "p", "run-al", T)).hits).toEqual([
      { kind: "run", value: "run-alpha-1" },
      { kind: "run", value: "run-alpha-2" },
    ]);
    expect((await searchProject(store, "p", "ca", T)).hits).toEqual([
      { kind: "tool", value: "calendar_lookup" },
      { kind: "tool", value: "cancel_booking" },
    ]);
    expect((await searchProject(store, "p", "upstream_", T)).hits).toEqual([
      { kind: "code", value: "upstream_timeout" },
      { kind: "code", value: "upstream_unavailable" },
    ]);
    expect((await searchProject(store, "p", "2026.1", T)).hits).toEqual([
      { kind: "release", value: "2026.1.0" },
      { kind: "release", value: "2026.1.1" },
    ]);
    expect((await searchProject(store, "p", "cancel_o", T)).hits).toEqual([]);
  });

  it("matches the prefix case-sensitively, by code point, on both engines", async () => {
    expect((await searchProject(store, "p", "Ca", T)).hits).toEqual([{ kind: "tool", value: "Cancel_Upper" }]);
    expect((await searchProject(store, "p", "R", T)).hits).toEqual([{ kind: "run", value: "Run-Gamma" }]);
    // "run-" must not match "Run-Gamma", nor a run id that only contains the prefix.
    expect((await searchProject(store, "p", "run-", T)).hits.map((h) => h.value)).toEqual(["run-alpha-1", "run-alpha-2", "run-beta"]);
  });

  it("finds a call by its exact id, with its run and its first attempt's span", async () => {
    expect((await searchProject(store, "p", "tc_Retry", T)).hits).toEqual([{ kind: "call", value: "tc_Retry", runId: "job-call", spanId: "retry-1" }]);
    expect((await searchProject(store, "p", "tc_unnumbered", T)).hits).toEqual([{ kind: "call", value: "tc_unnumbered", runId: "job-call", spanId: "un-early" }]);
    expect((await searchProject(store, "p", "tc_mixed", T)).hits).toEqual([{ kind: "call", value: "tc_mixed", runId: "job-call", spanId: "mixed-1" }]);
    // The other project's call of the same id stays out.
    expect((await searchProject(store, "p", "tc_shared", T)).hits).toEqual([
      { kind: "call", value: "tc_shared", runId: "job-a", spanId: "shared-a" },
      { kind: "call", value: "tc_shared", runId: "job-b", spanId: "shared-b" },
    ]);
    expect((await searchProject(store, "other", "tc_shared", T)).hits).toEqual([{ kind: "call", value: "tc_shared", runId: "run-other", spanId: "o2" }]);
  });

  it("finds calls by prefix, case-sensitively, a few at a time", async () => {
    const answer = await searchProject(store, "p", "tc_", T);
    expect(answer.hits.map((h) => (h.kind === "call" ? `${h.value}@${h.runId}` : h.value))).toEqual([
      "tc_Retry@job-call", "tc_mixed@job-call", "tc_shared@job-a", "tc_shared@job-b", "tc_unnumbered@job-call",
    ]);
    expect(answer.truncated).toBe(false);
    expect((await searchProject(store, "p", "tc_r", T)).hits).toEqual([]);
    expect((await searchProject(store, "p", "TC_", T)).hits).toEqual([]);
    // c1, c10…c19 and the bulk calls: five listed in code-point order, more exist.
    const many = await searchProject(store, "p", "c1", T);
    expect(many.hits.map((h) => h.value)).toEqual(["c1", "c10", "c11", "c12", "c13"]);
    expect(many.truncated).toBe(true);
  });

  it("caps each kind at five hits and says more matched", async () => {
    const answer = await searchProject(store, "p", "bulk-", T);
    expect(answer.hits).toHaveLength(5);
    // Code-point order, the same on both engines: "bulk-10" before "bulk-2".
    expect(answer.hits.map((h) => h.value)).toEqual(["bulk-0", "bulk-1", "bulk-10", "bulk-11", "bulk-12"]);
    expect(answer.truncated).toBe(true);
  });

  it("answers existence questions for the in-app 404s", async () => {
    expect(await projectExists(store, "p")).toBe(true);
    expect(await projectExists(store, "nope")).toBe(false);
    expect(await toolExists(store, "p", "cancel_booking")).toBe(true);
    expect(await toolExists(store, "p", "cancel_other")).toBe(false);
    expect(await codeExists(store, "p", "upstream_timeout")).toBe(true);
    expect(await codeExists(store, "other", "upstream_timeout")).toBe(false);
    // A code no stored call carries any more (re-classified, or past retention) that drift still remembers.
    expect(await codeExists(store, "p", "quota_gone")).toBe(false);
    await store.run("INSERT INTO drift_signatures (project_id, code, tool, release, release_kind, first_seen, last_seen) VALUES ('p', 'quota_gone', 'book', '1.0.0', 'release', 0, 0)");
    expect(await codeExists(store, "p", "quota_gone")).toBe(true);
    expect(await codeExists(store, "other", "quota_gone")).toBe(false);
  });

  it("reads through indexes, never a scan of the spans table", async () => {
    for (const [kind, sql] of Object.entries(SEARCH_SQL)) {
      if (store.dialect === "sqlite") {
        const plan = (await store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, PLAN_PARAMS)).map((r) => r.detail);
        const text = plan.join("\n");
        // Every table access is a SEARCH on an index or primary key; none is a full SCAN of a table.
        expect(text, kind).not.toMatch(/SCAN (tool_call_spans|run_stats|span_rollups_6h)\b(?! USING)/);
        expect(text, kind).toMatch(/SEARCH|USING (COVERING )?INDEX/);
        if (kind === "tool") expect(text).toContain("spans_project_tool_time_idx");
        if (kind === "code") expect(text).toContain("spans_project_code_time_idx");
        if (kind === "call") expect(text).toContain("spans_project_call_idx");
      } else {
        // A few test rows make any plan cheap: with sequential scans priced out, the plan shows
        // whether an index can answer the query at all (it cannot if the text ranges do not match
        // the index's collation).
        const text = await store.transaction(async (tx) => {
          await tx.run("SET LOCAL enable_seqscan = off");
          return (await tx.all<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, PLAN_PARAMS)).map((r) => r["QUERY PLAN"]).join("\n");
        });
        expect(text, kind).not.toMatch(/Seq Scan on (tool_call_spans|run_stats|span_rollups_6h)/);
        expect(text, kind).toMatch(/Index (Only )?Scan/);
        // Each partition's copy of the index is named after the partition and its columns.
        if (kind === "call") expect(text).toMatch(/Index (Only )?Scan using \w*project_id_call_id_idx/);
      }
    }
  });
});
