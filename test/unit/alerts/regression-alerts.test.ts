// The issue_regressed rule kind on both engines: rows written by the real ingest path, the triage
// written by the write path's own db function, the evaluator and the preview run at injected times.
// It fires once when a resolved issue fails in a later release, names the issue with its state and
// link, and resolves when someone triages the issue again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { evaluateAlerts } from "@/db/alerts/evaluate-alerts";
import { previewAlertRule } from "@/db/alerts/preview-rule";
import { createAlertRule } from "@/db/alerts/rules";
import { writeRows } from "@/db/ingest/write-rows";
import { getIssueRow } from "@/db/issues/list-issues";
import { triageIssue } from "@/db/issues/triage-issue";
import { createProject } from "@/db/keys";
import { notificationLines, notificationText, readNotification, type AlertNotification } from "@/lib/alerts/notification";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { issueId } from "@/lib/triage/issue-batch";
import type { TriageAction } from "@/lib/triage/issue-state";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";

const NOW = Date.UTC(2026, 5, 1, 12);
const MIN = 60_000;
const ISSUE = issueId("p", "book_flight", "upstream_unavailable");
const OTHER = issueId("p", "search", "timed_out");
let seq = 0;
const failing = (at: number, toolVersion: string, over: Partial<SpanRow> = {}): SpanRow => {
  const n = ++seq;
  return {
    spanId: `r${n}`, traceId: null, parentSpanId: null, runId: `run-${n}`, callId: `call-${n}`, tool: "book_flight", toolVersion, release: null,
    service: "agent", environment: "prod", sdkName: null, sdkVersion: null, attempt: 1, startedAt: at, startedSubNs: null, endedAt: at + 10, outcome: "failed",
    code: "upstream_unavailable", errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: "surfaced", permitted: null, abandoned: null,
    message: null, derived: null, argsHash: null, afterError: null, source: "native", ...over,
  };
};

describe.each(DIALECTS)("issue_regressed alerts on %s", (dialect) => {
  let store: Store;
  let ruleId: number;
  const write = async (now: number, rows: SpanRow[]) => {
    const batch = emptyRowBatch();
    rows.forEach((row, index) => batch.spans.push({ index, row }));
    await writeRows(store, "p", batch, now);
  };
  const triage = async (id: string, action: TriageAction, now: number) => triageIssue(store, (await getIssueRow(store, id))!, action, { actorUserId: null, actorLabel: "ana" }, now);
  const notifications = async (): Promise<AlertNotification[]> =>
    (await store.all<{ body: string }>("SELECT body FROM alert_outbox WHERE rule_id = ? ORDER BY id", [ruleId])).map((r) => readNotification(r.body));

  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    ruleId = (await createAlertRule(store, { project: "p", name: "regressions", params: { kind: "issue_regressed" }, receiverId: null }, NOW - 300 * MIN)).id;
    await write(NOW - 200 * MIN, [failing(NOW - 200 * MIN, "1.4.0"), failing(NOW - 190 * MIN, "1.4.1"), failing(NOW - 180 * MIN, "2.0.0", { tool: "search", code: null, outcome: "timed_out" })]);
    await triage(ISSUE, { state: "resolved", mode: "next_release" }, NOW - 170 * MIN);
    await triage(OTHER, { state: "resolved", mode: "now" }, NOW - 170 * MIN);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("stays silent while resolved issues fail only where the resolution allows", async () => {
    await write(NOW - 100 * MIN, [failing(NOW - 100 * MIN, "1.4.1")]);
    expect(await evaluateAlerts(store, NOW - 90 * MIN, "https://faultline.example")).toBe(0);
    expect(await notifications()).toEqual([]);
  });

  it("fires once when a failure in a later release regresses the issue, naming it with its state and link", async () => {
    await write(NOW - 60 * MIN, [failing(NOW - 60 * MIN, "1.5.0", { runId: "run-late" }), failing(NOW - 50 * MIN, "1.5.0", { runId: "run-late" })]);
    expect(await evaluateAlerts(store, NOW - 40 * MIN, "https://faultline.example")).toBe(1);
    expect(await evaluateAlerts(store, NOW - 30 * MIN, "https://faultline.example")).toBe(0);
    const [fired, ...rest] = await notifications();
    expect(rest).toEqual([]);
    const link = `https://faultline.example/issues?project=p&issue=${ISSUE}`;
    expect(fired).toEqual({
      project: "p",
      rule: { id: ruleId, name: "regressions", kind: "issue_regressed" },
      status: "firing",
      tool: "book_flight",
      code: "upstream_unavailable",
      value: "failed again in 1.5.0 after it was resolved in the release after 1.4.1",
      at: NOW - 40 * MIN,
      link,
      summary:
        "`book_flight` / `upstream_unavailable`: failed again in 1.5.0 after it was resolved in the release after 1.4.1, crossing a resolved issue failing again in a later release on any tool; " +
        "release 1.5.0; environment prod; since 2026-06-01 11:00 UTC.",
      threshold: "a resolved issue failing again in a later release on any tool",
      since: NOW - 60 * MIN,
      durationMs: null,
      codes: [{ code: "upstream_unavailable", count: 2 }],
      releases: ["1.5.0"],
      environments: ["prod"],
      runs: [{ id: "run-late", link: "https://faultline.example/runs/run-late?project=p" }],
      issue: { id: ISSUE, state: "regressed", link },
    });
    expect(notificationText(fired!)).toBe("FIRING: regressions (book_flight / upstream_unavailable) — failed again in 1.5.0 after it was resolved in the release after 1.4.1 — issue regressed");
    expect(notificationLines(fired!).at(-1)).toBe(`Open in Faultline: ${link}`);
  });

  it("resolves when the issue is triaged again", async () => {
    await triage(ISSUE, { state: "resolved", mode: "in_release", release: "1.5.1" }, NOW - 20 * MIN);
    expect(await evaluateAlerts(store, NOW, "https://faultline.example")).toBe(1);
    const resolved = (await notifications())[1]!;
    expect([resolved.status, resolved.value, resolved.since, resolved.durationMs, resolved.issue?.state]).toEqual(["resolved", "resolved after 40 min", NOW - 40 * MIN, 40 * MIN, "resolved"]);
  });

  it("previews the regressions of the last week from the issues' history", async () => {
    const preview = await previewAlertRule(store, "p", { kind: "issue_regressed" }, NOW);
    expect(preview.episodes).toEqual([
      { tool: "book_flight", code: "upstream_unavailable", value: "failed again in 1.5.0 after it was resolved in the release after 1.4.1", firedAt: NOW - 60 * MIN, resolvedAt: NOW - 20 * MIN },
    ]);
    expect(preview.notifications).toBe(2);
    expect((await previewAlertRule(store, "p", { kind: "issue_regressed", tool: "search" }, NOW)).episodes).toEqual([]);
  });
});
