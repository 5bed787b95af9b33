// Declines open an issue only when a drift finding or an alert rule says so (docs/issues.md): rows
// written by the real ingest path, drift refreshed and rules evaluated by their own db functions, on
// both engines.
import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { evaluateAlerts } from "@/db/alerts/evaluate-alerts";
import { createAlertRule } from "@/db/alerts/rules";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { writeRows } from "@/db/ingest/write-rows";
import { getIssueRow } from "@/db/issues/list-issues";
import { triageIssue } from "@/db/issues/triage-issue";
import { createProject } from "@/db/keys";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { issueId } from "@/lib/triage/issue-batch";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";

const NOW = Date.UTC(2026, 5, 1, 12);
const MIN = 60_000;
const NO_SEATS = issueId("p", "book_flight", "no_seats");
const SOLD_OUT = issueId("p", "book_flight", "sold_out");
let seq = 0;
const call = (at: number, toolVersion: string, over: Partial<SpanRow> = {}): SpanRow => {
  const n = ++seq;
  return {
    spanId: `d${n}`, traceId: null, parentSpanId: null, runId: `run-${n % 4}`, callId: `call-${n}`, tool: "book_flight", toolVersion, release: null,
    service: "agent", environment: "prod", sdkName: null, sdkVersion: null, attempt: 1, startedAt: at, startedSubNs: null, endedAt: at + 10, outcome: "ok",
    code: null, errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: null, permitted: null, abandoned: null,
    message: null, derived: null, argsHash: null, afterError: null, source: "native", ...over,
  };
};
const declined = (at: number, toolVersion: string, code: string) => call(at, toolVersion, { outcome: "declined", code, decision: "surfaced" });
const times = (count: number, from: number) => Array.from({ length: count }, (_, i) => from + i * 1000);

describe.each(DIALECTS)("declines open issues on a drift finding or an alert rule (%s)", (dialect) => {
  let store: Store;
  afterEach(async () => {
    await store?.close();
  });
  const write = async (now: number, rows: SpanRow[]) => {
    const batch = emptyRowBatch();
    rows.forEach((row, index) => batch.spans.push({ index, row }));
    await writeRows(store, "p", batch, now);
  };
  const issues = () => store.all("SELECT tool, code, state, failures, runs FROM issues WHERE project_id = 'p' ORDER BY code");
  const history = (id: string) => store.all(`SELECT kind, detail, actor_label AS "actor" FROM issue_events WHERE project_id = 'p' AND issue_id = ? ORDER BY id`, [id]);
  const audit = () => store.all(`SELECT actor_label AS "actor", action, target FROM audit_log WHERE project_id = 'p' ORDER BY id`);

  it("a new drift finding on a declined code opens its issue once; a finding that persists never reopens it", async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    // 1.0.0: 20 answered calls; 1.1.0: 10 answered and 10 declined with a new code (an `added` finding).
    await write(NOW - 200 * MIN, [
      ...times(20, NOW - 200 * MIN).map((at) => call(at, "1.0.0")),
      ...times(10, NOW - 150 * MIN).map((at) => call(at, "1.1.0")),
      ...times(10, NOW - 140 * MIN).map((at) => declined(at, "1.1.0", "no_seats")),
    ]);
    expect(await issues()).toEqual([]);
    await refreshDrift(store, "p", NOW - 100 * MIN);
    expect(await issues()).toEqual([{ tool: "book_flight", code: "no_seats", state: "open", failures: 10, runs: 4 }]);
    expect(await history(NO_SEATS)).toEqual([{ kind: "created", detail: 'opened by drift finding "added" of no_seats in book_flight 1.0.0 → 1.1.0', actor: "drift" }]);
    expect(await audit()).toEqual([{ actor: "system", action: "issue.state_changed", target: "book_flight no_seats" }]);

    await triageIssue(store, (await getIssueRow(store, NO_SEATS))!, { state: "resolved", mode: "now" }, { actorUserId: null, actorLabel: "ana" }, NOW - 90 * MIN);
    // More rows: the findings are recomputed, the same finding persists, the resolution stands.
    await write(NOW - 80 * MIN, times(3, NOW - 80 * MIN).map((at) => declined(at, "1.1.0", "no_seats")));
    expect((await refreshDrift(store, "p", NOW - 70 * MIN)).findingsRecomputed).toBe(true);
    expect(await issues()).toEqual([{ tool: "book_flight", code: "no_seats", state: "resolved", failures: 10, runs: 4 }]);
  });

  it("an alert rule firing on a declined code opens its issue, or reopens a resolved one, and names it in its message", async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    const rule = (await createAlertRule(store, { project: "p", name: "new codes", params: { kind: "new_code" }, receiverId: null }, NOW - 300 * MIN)).id;
    // Two declines: too few for drift, but a new code for the rule.
    await write(NOW - 200 * MIN, [declined(NOW - 200 * MIN, "1.0.0", "sold_out"), declined(NOW - 199 * MIN, "1.0.0", "sold_out"), call(NOW - 198 * MIN, "1.0.0")]);
    expect(await issues()).toEqual([]);
    expect(await evaluateAlerts(store, NOW - 100 * MIN, "https://faultline.example")).toBe(1);
    expect(await issues()).toEqual([{ tool: "book_flight", code: "sold_out", state: "open", failures: 2, runs: 2 }]);
    const by = `alert rule "new codes" (#${rule})`;
    expect(await history(SOLD_OUT)).toEqual([{ kind: "created", detail: `opened by ${by}`, actor: "alert rule" }]);
    const [body] = await store.all<{ body: string }>("SELECT body FROM alert_outbox WHERE rule_id = ?", [rule]);
    expect(JSON.parse(body!.body)).toMatchObject({ issue: { id: SOLD_OUT, state: "open" } });
    // Still firing: nothing more happens.
    expect(await evaluateAlerts(store, NOW - 90 * MIN, "https://faultline.example")).toBe(0);
    expect(await history(SOLD_OUT)).toHaveLength(1);

    // Resolved, the code stops being new (the rule resolves), then a second rule fires on it: reopened.
    await triageIssue(store, (await getIssueRow(store, SOLD_OUT))!, { state: "resolved", mode: "now" }, { actorUserId: null, actorLabel: "ana" }, NOW - 80 * MIN);
    const second = (await createAlertRule(store, { project: "p", name: "any new code", params: { kind: "new_code", tool: "book_flight" }, receiverId: null }, NOW - 300 * MIN)).id;
    expect(await evaluateAlerts(store, NOW - 70 * MIN, "https://faultline.example")).toBe(1);
    expect(await issues()).toEqual([{ tool: "book_flight", code: "sold_out", state: "open", failures: 2, runs: 2 }]);
    expect((await history(SOLD_OUT)).at(-1)).toEqual({ kind: "state", detail: `reopened by alert rule "any new code" (#${second})`, actor: "alert rule" });
    expect(await audit()).toEqual([
      { actor: "system", action: "issue.state_changed", target: "book_flight sold_out" },
      { actor: "system", action: "issue.state_changed", target: "book_flight sold_out" },
    ]);
  });

  it("a firing rule on a code that never declined opens nothing", async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    await createAlertRule(store, { project: "p", name: "new codes", params: { kind: "new_code" }, receiverId: null }, NOW - 300 * MIN);
    await write(NOW - 200 * MIN, [call(NOW - 200 * MIN, "1.0.0", { code: "partial_fare" })]);
    expect(await evaluateAlerts(store, NOW - 100 * MIN, "https://faultline.example")).toBe(1);
    expect(await issues()).toEqual([]);
  });
});
