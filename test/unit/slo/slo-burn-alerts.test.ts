// SLO burn-rate alerts on both engines, on synthetic histories written by the real ingest path and
// evaluated by the real alert job at injected times (no sleeping): a fast burn pages when the 1 h
// and 5 min windows both cross 14.4× and resolves as soon as the 5 min window clears; a slow burn
// tickets when the 6 h and 30 min windows both cross 6× and resolves when the 30 min window clears.
// Every notification is written once, with the SLO, the windows, the burn rates and how long it lasted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { evaluateAlerts } from "@/db/alerts/evaluate-alerts";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { createSlo } from "@/db/slos/slos";
import { sloBurnRates } from "@/db/slos/slo-status";
import { pagerDutySeverity } from "@/lib/alerts/pagerduty";
import { readNotification, type AlertNotification } from "@/lib/alerts/notification";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 5, 1, 12);
let seq = 0;

/** `calls` calls of `tool` in the 5 minutes from `at`, in one run named for the minute, the first `bad` of them failing with nothing after. */
function bucket(tool: string, at: number, calls: number, bad: number): SpanRow[] {
  return Array.from({ length: calls }, (_, i) => {
    const n = ++seq;
    const start = at + i * 1000;
    const failing = i < bad;
    return {
      spanId: `s${n}`, traceId: null, parentSpanId: null, runId: `${tool}-${(at - T0) / MIN}`, callId: `call-${n}`, tool, toolVersion: null, release: "2.0.0",
      service: "agent", environment: "prod", sdkName: null, sdkVersion: null, attempt: 1, startedAt: start, startedSubNs: null, endedAt: start + 10,
      outcome: failing ? "failed" : "ok", code: failing ? "upstream_timeout" : null, errorClass: failing ? "ToolFailure" : null, retryable: null, retryAfterMs: null,
      backoffMs: null, decision: failing ? "surfaced" : null, permitted: null, abandoned: null, message: null, derived: null, argsHash: null, afterError: null, source: "native",
    };
  });
}

describe.each(DIALECTS)("SLO burn-rate alerts on %s", (dialect) => {
  let store: Store;
  const rules: Record<"fast" | "slow", number> = { fast: 0, slow: 0 };
  const sloIds: Record<"fast" | "slow", number> = { fast: 0, slow: 0 };
  const notifications = async (rule: number): Promise<AlertNotification[]> =>
    (await store.all<{ body: string }>("SELECT body FROM alert_outbox WHERE rule_id = ? ORDER BY id", [rule])).map((r) => readNotification(r.body));
  const changes = async (rule: number) => (await notifications(rule)).map((n) => [n.status, (n.at - T0) / MIN]);

  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "P");
    const fast = await createSlo(store, { project: "p", name: "Search answers", tools: ["search_*"], objective: 0.99, windowDays: 28, countDeclines: false, countRecovered: false, receiverId: null }, T0 - 8 * HOUR);
    const slow = await createSlo(store, { project: "p", name: "Bookings", tools: ["book"], objective: 0.99, windowDays: 28, countDeclines: false, countRecovered: false, receiverId: null }, T0 - 8 * HOUR);
    [rules.fast, rules.slow, sloIds.fast, sloIds.slow] = [fast.ruleId, slow.ruleId, fast.slo.id, slow.slo.id];
    const rows: SpanRow[] = [];
    for (let at = T0 - 7 * HOUR; at < T0 + 5 * HOUR; at += 5 * MIN) {
      // search_web: half bad for the 20 minutes from T0. book: one in ten bad for the 4 hours from T0.
      rows.push(...bucket("search_web", at, 10, at >= T0 && at < T0 + 20 * MIN ? 5 : 0));
      rows.push(...bucket("book", at, 10, at >= T0 && at < T0 + 4 * HOUR ? 1 : 0));
    }
    // A tool no SLO covers, failing throughout: it must move nothing.
    for (let at = T0 - HOUR; at < T0 + HOUR; at += 5 * MIN) rows.push(...bucket("lookup", at, 2, 2));
    const batch = emptyRowBatch();
    rows.forEach((row, index) => batch.spans.push({ index, row }));
    await writeRows(store, "p", batch);
    // The alert job every 5 minutes from T0 to T0 + 4 h 30 min.
    for (let at = T0; at <= T0 + 270 * MIN; at += 5 * MIN) await evaluateAlerts(store, at, "https://faultline.example");
  }, 120_000);
  afterAll(async () => {
    await store?.close();
  });

  it("measures the burn rates over the four windows exactly", async () => {
    const slo = { id: sloIds.fast, project: "p", name: "Search answers", tools: ["search_*"], objective: 0.99, windowDays: 28, countDeclines: false, countRecovered: false, createdAt: 0, updatedAt: 0 };
    // At T0 + 20 min: 5 min holds 5 bad of 10, 30 min 20 of 60, 1 h 20 of 120, 6 h 20 of 720.
    expect(await sloBurnRates(store, slo, T0 + 20 * MIN)).toEqual({ h6: 2.777777778, h1: 16.666666667, m30: 33.333333333, m5: 50 });
    expect(await sloBurnRates(store, slo, T0)).toEqual({ h6: 0, h1: 0, m30: 0, m5: 0 });
  });

  it("pages on the fast burn at T0 + 20 min (1 h at 16.7×, 5 min at 50×) and resolves at T0 + 25 min, never tickets", async () => {
    expect(await changes(rules.fast)).toEqual([
      ["firing", 20],
      ["resolved", 25],
    ]);
    const [fired, resolved] = await notifications(rules.fast);
    expect(fired).toMatchObject({
      rule: { id: rules.fast, name: "SLO Search answers: burn rate", kind: "slo_burn" },
      status: "firing",
      tool: "search_*",
      code: "upstream_timeout",
      value: "fast burn: 16.7× over 1 h and 50× over 5 min (threshold 14.4×)",
      threshold: "burn rate 14.4× or more over both 1 h and 5 min (page)",
      link: `https://faultline.example/slos?project=p&slo=${sloIds.fast}`,
      since: T0,
      durationMs: null,
      codes: [{ code: "upstream_timeout", count: 20 }],
      releases: ["2.0.0"],
      environments: ["prod"],
    });
    expect(pagerDutySeverity(fired!)).toBe("critical");
    expect(fired!.summary).toBe(
      'SLO "Search answers" (search_*; 99% over 28 d): fast burn: 16.7× over 1 h and 50× over 5 min (threshold 14.4×), crossing burn rate 14.4× or more over both 1 h and 5 min (page); ' +
        // 880 calls since T0 - 7 h, 20 bad, 8.8 allowed: 1 - 20 / 8.8.
        "budget left -127.3%; codes `upstream_timeout` (20); release 2.0.0; environment prod; since 2026-06-01 12:00 UTC.",
    );
    // Five bad calls in each of four runs: the latest first.
    expect(fired!.runs).toEqual(
      ["search_web-15", "search_web-10", "search_web-5", "search_web-0"].map((id) => ({ id, link: `https://faultline.example/runs/${id}?project=p` })),
    );
    expect(resolved).toMatchObject({ status: "resolved", since: T0 + 20 * MIN, durationMs: 5 * MIN, value: "resolved after 5 min; now 16.7× over 1 h and 0× over 5 min" });
    expect(resolved!.summary).toMatch(/^SLO "Search answers" \(search_\*; 99% over 28 d\): fast burn resolved after 5 min, no longer burn rate 14\.4× or more over both 1 h and 5 min \(page\); now 16\.7× over 1 h and 0× over 5 min;/);
  });

  it("tickets on the slow burn at T0 + 3 h 40 min (6 h at 6.11×, 30 min at 10×) and resolves at T0 + 4 h 15 min, never pages", async () => {
    expect(await changes(rules.slow)).toEqual([
      ["firing", 220],
      ["resolved", 255],
    ]);
    const [fired, resolved] = await notifications(rules.slow);
    expect(fired!.value).toBe("slow burn: 6.11× over 6 h and 10× over 30 min (threshold 6×)");
    expect(pagerDutySeverity(fired!)).toBe("warning");
    expect(fired!.threshold).toBe("burn rate 6× or more over both 6 h and 30 min (ticket)");
    expect(resolved).toMatchObject({ durationMs: 35 * MIN, value: "resolved after 35 min; now 6.67× over 6 h and 5× over 30 min" });
  });
});
