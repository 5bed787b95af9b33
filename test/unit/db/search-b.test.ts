import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { codeExists, projectExists, SEARCH_SQL, searchProject, toolExists } from "@/db/queries/search";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";

const T = Date.UTC(2026, 0, 10);
const base: SpanRow = {
  spanId: "", traceId: null, parentSpanId: null, runId: "", callId: "", tool: "", toolVersion: null, release: "r1",
  service: "svc", environment: "prod", sdkName: null, sdkVersion: null, attempt: 1, startedAt: T, endedAt: T + 10,
  outcome: "ok", code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: null,
  permitted: true, abandoned: false, message: null, source: "native",
};

let dir: string;
let store: Store;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "faultline-search-"));
  store = openStore(path.join(dir, "db.sqlite"));
  createProject(store, "p", "p");
  createProject(store, "other", "other");
  const batch = emptyRowBatch();
  const spans: Partial<SpanRow>[] = [
    { runId: "run-alpha-1", tool: "cancel_booking", code: "upstream_unavailable", outcome: "failed", release: "2026.1.0" },
    { runId: "run-alpha-2", tool: "cancel_booking", release: "2026.1.1" },
    { runId: "run-beta", tool: "calendar_lookup", code: "upstream_timeout", outcome: "timed_out", release: "2026.1.1" },
    // Many spans of one tool: the tool walk must still return it once.
    ...Array.from({ length: 50 }, (_, i) => ({ runId: `bulk-${i}`, tool: "cancel_booking" })),
  ];
  spans.forEach((s, i) => batch.spans.push({ index: i, row: { ...base, spanId: `s${i}`, callId: `c${i}`, ...s } }));
  writeRows(store, "p", batch, T);
  const other = emptyRowBatch();
  other.spans.push({ index: 0, row: { ...base, spanId: "o1", callId: "o1", runId: "run-other", tool: "cancel_other" } });
  writeRows(store, "other", other, T);
});
afterAll(() => {
  store.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("searchProject", () => {
  it("finds runs, tools, codes and releases by prefix, within the project only", () => {
    expect(searchProject(store, "p", "run-al", T).hits).toEqual([
      { kind: "run", value: "run-alpha-1" },
      { kind: "run", value: "run-alpha-2" },
    ]);
    expect(searchProject(store, "p", "ca", T).hits).toEqual([
      { kind: "tool", value: "calendar_lookup" },
      { kind: "tool", value: "cancel_booking" },
    ]);
    expect(searchProject(store, "p", "upstream_", T).hits).toEqual([
      { kind: "code", value: "upstream_timeout" },
      { kind: "code", value: "upstream_unavailable" },
    ]);
    expect(searchProject(store, "p", "2026.1", T).hits).toEqual([
      { kind: "release", value: "2026.1.0" },
      { kind: "release", value: "2026.1.1" },
    ]);
    expect(searchProject(store, "p", "cancel_o", T).hits).toEqual([]);
  });

  it("caps each kind at five hits and says more matched", () => {
    const answer = searchProject(store, "p", "bulk-", T);
    expect(answer.hits).toHaveLength(5);
    expect(answer.truncated).toBe(true);
  });

  it("answers existence questions for the in-app 404s", () => {
    expect(projectExists(store, "p")).toBe(true);
    expect(projectExists(store, "nope")).toBe(false);
    expect(toolExists(store, "p", "cancel_booking")).toBe(true);
    expect(toolExists(store, "p", "cancel_other")).toBe(false);
    expect(codeExists(store, "p", "upstream_timeout")).toBe(true);
    expect(codeExists(store, "other", "upstream_timeout")).toBe(false);
  });

  it("reads through indexes, never a scan of the spans table", () => {
    for (const [kind, sql] of Object.entries(SEARCH_SQL)) {
      const plan = store.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all({ project: "p", lo: "a", hi: "b", limit: 6, since: 0 })
        .map((r) => (r as { detail: string }).detail);
      const text = plan.join("\n");
      // Every table access is a SEARCH on an index or primary key; none is a full SCAN of a table.
      expect(text, kind).not.toMatch(/SCAN (tool_call_spans|run_stats|span_rollups_6h)\b(?! USING)/);
      expect(text, kind).toMatch(/SEARCH|USING (COVERING )?INDEX/);
      if (kind === "tool") expect(text).toContain("spans_project_tool_time_idx");
      if (kind === "code") expect(text).toContain("spans_project_code_time_idx");
    }
  });
});
