// Alert messages a person can act on, on both engines: what crossed which threshold, for which tool,
// code, release and environment, since when, the top runs with links, and for a resolution how long
// it lasted. Rows are written by the real ingest path; the evaluator runs at injected times.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { evaluateAlerts } from "@/db/alerts/evaluate-alerts";
import { createAlertRule } from "@/db/alerts/rules";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { notificationLines, notificationText, readNotification, type AlertNotification } from "@/lib/alerts/notification";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { issueId } from "@/lib/triage/issue-batch";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";

const NOW = Date.UTC(2026, 5, 1, 12);
const ISSUE = issueId("p", "lookup", "upstream_timeout");
const MIN = 60_000;
let seq = 0;
const span = (minutesAgo: number, over: Partial<SpanRow> = {}): SpanRow => {
  const n = ++seq;
  const at = NOW - minutesAgo * MIN;
  return {
    spanId: `m${n}`, traceId: null, parentSpanId: null, runId: `run-${n}`, callId: `call-${n}`, tool: "lookup", toolVersion: null, release: "1.4.2",
    service: "agent", environment: "prod", sdkName: null, sdkVersion: null, attempt: 1, startedAt: at, startedSubNs: null, endedAt: at + 10, outcome: "ok",
    code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: null, permitted: null, abandoned: null,
    message: null, derived: null, argsHash: null, afterError: null, source: "native", ...over,
  };
};
const failing = (minutesAgo: number, over: Partial<SpanRow> = {}) => span(minutesAgo, { outcome: "failed", code: "upstream_timeout", decision: "surfaced", ...over });

describe.each(DIALECTS)("alert messages on %s", (dialect) => {
  let store: Store;
  let ruleId: number;
  const write = async (rows: SpanRow[]) => {
    const batch = emptyRowBatch();
    rows.forEach((row, index) => batch.spans.push({ index, row }));
    await writeRows(store, "p", batch);
  };
  const notifications = async (): Promise<AlertNotification[]> =>
    (await store.all<{ body: string }>("SELECT body FROM alert_outbox WHERE rule_id = ? ORDER BY id", [ruleId])).map((r) => readNotification(r.body));

  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    ruleId = (await createAlertRule(store, { project: "p", name: "lookup failing", params: { kind: "failure_rate", tool: "lookup", windowMinutes: 60, threshold: 0.5, minCalls: 4 }, receiverId: null }, NOW - 120 * MIN)).id;
    await write([
      // run-a fails twice, run-b once, run-c once in staging on another release with another code; one call is ok.
      failing(40, { runId: "run-a" }),
      failing(30, { runId: "run-a" }),
      failing(20, { runId: "run-b" }),
      failing(10, { runId: "run-c", code: "quota_exceeded", environment: "staging", release: "1.4.1" }),
      span(5),
    ]);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("a firing failure rate names the threshold, the codes, release, environment, since when and the top runs with links", async () => {
    expect(await evaluateAlerts(store, NOW, "https://faultline.example")).toBeGreaterThanOrEqual(1);
    const [fired, ...rest] = await notifications();
    expect(rest).toEqual([]);
    expect(fired).toEqual({
      project: "p",
      rule: { id: ruleId, name: "lookup failing", kind: "failure_rate" },
      status: "firing",
      tool: "lookup",
      code: "upstream_timeout",
      value: "80% of 5 calls failed in 60 min",
      at: NOW,
      link: "https://faultline.example/tools/lookup?project=p",
      summary:
        "`lookup`: 80% of 5 calls failed in 60 min, crossing more than 50% of calls failed in 60 min (at least 4 calls); " +
        "codes `upstream_timeout` (3), `quota_exceeded` (1); release 1.4.2, 1.4.1; environment prod, staging; since 2026-06-01 11:20 UTC.",
      threshold: "more than 50% of calls failed in 60 min (at least 4 calls)",
      since: NOW - 40 * MIN,
      durationMs: null,
      codes: [{ code: "upstream_timeout", count: 3 }, { code: "quota_exceeded", count: 1 }],
      releases: ["1.4.2", "1.4.1"],
      environments: ["prod", "staging"],
      runs: [
        { id: "run-a", link: "https://faultline.example/runs/run-a?project=p" },
        { id: "run-c", link: "https://faultline.example/runs/run-c?project=p" },
        { id: "run-b", link: "https://faultline.example/runs/run-b?project=p" },
      ],
      // The issue of the code most failures carried, as it stood.
      issue: { id: ISSUE, state: "open", link: `https://faultline.example/issues?project=p&issue=${ISSUE}` },
    });
    expect(notificationText(fired!)).toBe("FIRING: lookup failing (lookup / upstream_timeout) — 80% of 5 calls failed in 60 min — issue open");
    expect(notificationLines(fired!).slice(2)).toEqual([
      "Project: p",
      "Tool: lookup",
      "Code: upstream_timeout",
      "Codes: upstream_timeout (3), quota_exceeded (1)",
      "Release: 1.4.2, 1.4.1",
      "Environment: prod, staging",
      "Threshold: more than 50% of calls failed in 60 min (at least 4 calls)",
      "Since: 2026-06-01 11:20 UTC",
      `Issue: open, https://faultline.example/issues?project=p&issue=${ISSUE}`,
      "",
      "Runs:",
      "  run-a: https://faultline.example/runs/run-a?project=p",
      "  run-c: https://faultline.example/runs/run-c?project=p",
      "  run-b: https://faultline.example/runs/run-b?project=p",
      "",
      "Open in Faultline: https://faultline.example/tools/lookup?project=p",
    ]);
  });

  it("a resolution says how long it lasted and where the measure stands now", async () => {
    const later = NOW + 75 * MIN;
    // Ten good calls in the new window: the failures of the first window have aged out.
    await write(Array.from({ length: 10 }, () => span(-70)));
    await evaluateAlerts(store, later, "https://faultline.example");
    const resolved = (await notifications())[1]!;
    expect([resolved.status, resolved.value, resolved.since, resolved.durationMs, resolved.summary]).toEqual([
      "resolved",
      "resolved after 1 h 15 min; now 0% of 10 calls failed in 60 min",
      NOW,
      75 * MIN,
      "`lookup`: resolved after 1 h 15 min, no longer more than 50% of calls failed in 60 min (at least 4 calls); now 0% of 10 calls failed in 60 min; " +
        "codes `upstream_timeout` (3), `quota_exceeded` (1); release 1.4.2, 1.4.1; environment prod, staging; fired at 2026-06-01 12:00 UTC.",
    ]);
    expect(notificationText(resolved)).toBe("RESOLVED: lookup failing (lookup / upstream_timeout) — resolved after 1 h 15 min — issue open");
  });
});
