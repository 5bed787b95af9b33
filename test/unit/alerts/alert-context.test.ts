// What an alert message names for a tool's failed attempts (db/alerts/context.ts), on both engines: a
// cancelled attempt counts as failed there (the rule facts' predicate), though the partial index the
// read prefers leaves cancelled attempts out, so the read must notice them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { loadAlertContext } from "@/db/alerts/context";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";

const NOW = Date.UTC(2026, 5, 1, 12);
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
let seq = 0;
const span = (minutesAgo: number, over: Partial<SpanRow> = {}): SpanRow => {
  const n = ++seq;
  const at = NOW - minutesAgo * MIN;
  return {
    spanId: `c${n}`, traceId: null, parentSpanId: null, runId: `run-${n}`, callId: `call-${n}`, tool: "lookup", toolVersion: null, release: "1.4.2",
    service: "agent", environment: "prod", sdkName: null, sdkVersion: null, attempt: 1, startedAt: at, startedSubNs: null, endedAt: at + 10, outcome: "ok",
    code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: null, permitted: null, abandoned: null,
    message: null, derived: null, argsHash: null, afterError: null, source: "native", ...over,
  };
};
const failing = (minutesAgo: number, over: Partial<SpanRow> = {}) => span(minutesAgo, { outcome: "failed", code: "upstream_timeout", decision: "surfaced", ...over });

describe.each(DIALECTS)("alert context on %s", (dialect) => {
  let store: Store;
  const write = async (rows: SpanRow[]) => {
    const batch = emptyRowBatch();
    rows.forEach((row, index) => batch.spans.push({ index, row }));
    await writeRows(store, "p", batch);
  };
  const failed = (from: number, to = NOW + 1) => loadAlertContext(store, "p", { tool: "lookup", match: "failed", from, to });

  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    await write([
      span(3 * DAY / MIN), // an old call, so the rollups cover the windows below
      failing(50, { runId: "run-a" }),
      failing(40, { runId: "run-a", decision: "retried" }), // retried: not an alert's failure
      failing(30, { runId: "run-b", code: "quota_exceeded", environment: "staging", release: "1.4.1" }),
      // Cancelled, two days before: counted in the wider window only.
      span(2 * DAY / MIN, { runId: "run-z", outcome: "cancelled", code: "stopped", release: "1.3.0" }),
      span(20, { runId: "run-a" }),
      span(2 * DAY / MIN + 5, { tool: "other", outcome: "failed", code: "elsewhere" }),
    ]);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("names the failed attempts of the window, and no cancelled one where there is none", async () => {
    expect(await failed(NOW - 60 * MIN)).toEqual({
      codes: [{ code: "quota_exceeded", count: 1 }, { code: "upstream_timeout", count: 1 }],
      releases: ["1.4.1", "1.4.2"],
      environments: ["prod", "staging"],
      runs: ["run-b", "run-a"],
      firstAt: NOW - 50 * MIN,
    });
  });

  it("counts a cancelled attempt as failed, as the rule facts do", async () => {
    expect(await failed(NOW - 2 * DAY - 60 * MIN)).toEqual({
      codes: [{ code: "quota_exceeded", count: 1 }, { code: "stopped", count: 1 }, { code: "upstream_timeout", count: 1 }],
      releases: ["1.3.0", "1.4.1", "1.4.2"],
      environments: ["prod", "staging"],
      runs: ["run-b", "run-a", "run-z"],
      firstAt: NOW - 2 * DAY,
    });
    // One release asked for: the attempts of that release only.
    expect(await loadAlertContext(store, "p", { tool: "lookup", match: "failed", release: "1.3.0", from: 0, to: NOW + 1 })).toEqual({
      codes: [{ code: "stopped", count: 1 }], releases: ["1.3.0"], environments: ["prod"], runs: ["run-z"], firstAt: NOW - 2 * DAY,
    });
  });

  it("reads cancelled attempts whose rollup periods were pruned", async () => {
    // Rollups pruned up to the window's start: the rollup can no longer say the window has none.
    await store.run("DELETE FROM span_rollups_6h WHERE project_id = 'p' AND hour < ?", [NOW - DAY]);
    expect((await failed(NOW - 3 * DAY)).codes).toEqual([{ code: "quota_exceeded", count: 1 }, { code: "stopped", count: 1 }, { code: "upstream_timeout", count: 1 }]);
  });
});
