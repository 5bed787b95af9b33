// The rule preview replays the evaluator over a week of 5-minute buckets: firing and resolving at
// the steps the background job would, on both engines from rows written by the real ingest path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { previewAlertRule } from "@/db/alerts/preview-rule";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { PREVIEW_STEP_MS, previewRule, type PreviewBucket } from "@/lib/alerts/preview";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";

const STEP = PREVIEW_STEP_MS;
const NOW = Date.UTC(2026, 5, 8, 12);
const FROM = NOW - 7 * 86_400_000;
const bucket = (stepsAgo: number, over: Partial<PreviewBucket>): PreviewBucket => ({ tool: "lookup", at: NOW - stepsAgo * STEP, calls: 0, failedCalls: 0, retries: 0, refusals: 0, failedClosed: 0, ...over });
const rule = { kind: "failure_rate" as const, windowMinutes: 10, threshold: 0.5, minCalls: 4 };

describe("previewRule (pure)", () => {
  it("fires when the window's failures cross the threshold and resolves when they age out", () => {
    // 6 of 8 calls fail in the bucket starting 30 min before NOW; the 10-minute window (two buckets) holds it for two steps.
    const p = previewRule(rule, { buckets: [bucket(6, { calls: 8, failedCalls: 6 })], newCodes: [], drift: [], from: FROM, to: NOW });
    expect(p).toEqual({
      from: FROM,
      to: NOW,
      stepMinutes: 5,
      notifications: 2,
      episodes: [{ tool: "lookup", code: "", value: "75% of 8 calls failed in 10 min", firedAt: NOW - 5 * STEP, resolvedAt: NOW - 3 * STEP }],
    });
  });

  it("stays silent below the minimum calls, and keeps an episode open when it still holds at the end", () => {
    expect(previewRule(rule, { buckets: [bucket(6, { calls: 3, failedCalls: 3 })], newCodes: [], drift: [], from: FROM, to: NOW }).episodes).toEqual([]);
    const open = previewRule(rule, { buckets: [bucket(1, { calls: 4, failedCalls: 4 })], newCodes: [], drift: [], from: FROM, to: NOW });
    expect([open.notifications, open.episodes.map((e) => [e.firedAt, e.resolvedAt])]).toEqual([1, [[NOW, null]]]);
  });
});

describe.each(DIALECTS)("previewAlertRule on %s", (dialect) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    const rows: SpanRow[] = [];
    let n = 0;
    const span = (at: number, outcome: string): SpanRow => {
      n++;
      return {
        spanId: `v${n}`, traceId: null, parentSpanId: null, runId: `run-${n}`, callId: `call-${n}`, tool: "lookup", toolVersion: null, release: "1.0.0",
        service: "agent", environment: null, sdkName: null, sdkVersion: null, attempt: 1, startedAt: at, startedSubNs: null, endedAt: at + 10, outcome,
        code: outcome === "ok" ? null : "upstream_timeout", errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: outcome === "ok" ? null : "surfaced",
        permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "native",
      };
    };
    // Two bad spells two days apart, each in one 5-minute bucket: 6 of 8 calls failing.
    for (const start of [NOW - 2 * 86_400_000 - 6 * STEP, NOW - 6 * STEP]) {
      for (let i = 0; i < 8; i++) rows.push(span(start + i * 1000, i < 6 ? "failed" : "ok"));
    }
    const batch = emptyRowBatch();
    rows.forEach((row, index) => batch.spans.push({ index, row }));
    await writeRows(store, "p", batch);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("counts each spell as one firing and one resolution", async () => {
    const p = await previewAlertRule(store, "p", rule, NOW);
    expect([p.notifications, p.episodes]).toEqual([
      4,
      [
        { tool: "lookup", code: "", value: "75% of 8 calls failed in 10 min", firedAt: NOW - 2 * 86_400_000 - 5 * STEP, resolvedAt: NOW - 2 * 86_400_000 - 3 * STEP },
        { tool: "lookup", code: "", value: "75% of 8 calls failed in 10 min", firedAt: NOW - 5 * STEP, resolvedAt: NOW - 3 * STEP },
      ],
    ]);
    expect((await previewAlertRule(store, "p", { ...rule, tool: "search" }, NOW)).notifications).toBe(0);
  });
});
