import { describe, expect, it } from "vitest";
import { alertKey, conditionsOf, ruleIsQuiet, transitionsOf, type AlertFacts, type ToolWindowFacts } from "@/lib/alerts/evaluate";

const tool = (name: string, over: Partial<ToolWindowFacts> = {}): ToolWindowFacts => ({
  tool: name,
  calls: 0,
  failedCalls: 0,
  retries: 0,
  refusals: 0,
  previousRefusals: 0,
  failedClosed: 0,
  ...over,
});
const facts = (over: Partial<AlertFacts> = {}): AlertFacts => ({ tools: [], newCodes: [], drift: [], ...over });
const keys = (c: { tool: string; code: string; value: string }[]) => c.map((x) => [x.tool, x.code, x.value]);

describe("conditionsOf", () => {
  it("failure rate: strictly above the threshold, only with the minimum number of calls, per tool filter", () => {
    const f = facts({ tools: [tool("lookup", { calls: 20, failedCalls: 11 }), tool("search", { calls: 20, failedCalls: 10 }), tool("send", { calls: 19, failedCalls: 19 })] });
    expect(keys(conditionsOf({ kind: "failure_rate", windowMinutes: 10, threshold: 0.5, minCalls: 20 }, f))).toEqual([["lookup", "", "55% of 20 calls failed in 10 min"]]);
    expect(conditionsOf({ kind: "failure_rate", tool: "search", windowMinutes: 10, threshold: 0.5, minCalls: 20 }, f)).toEqual([]);
    expect(keys(conditionsOf({ kind: "failure_rate", windowMinutes: 10, threshold: 0.4, minCalls: 19 }, f)).map((k) => k[0])).toEqual(["lookup", "search", "send"]);
  });

  it("retry storm: per minute or per call, whichever is given", () => {
    const f = facts({ tools: [tool("lookup", { calls: 10, retries: 31 }), tool("search", { calls: 100, retries: 30 })] });
    expect(keys(conditionsOf({ kind: "retry_storm", windowMinutes: 5, perMinute: 6 }, f))).toEqual([["lookup", "", "31 retries in 5 min (6.2/min, 3.1 per call)"]]);
    expect(keys(conditionsOf({ kind: "retry_storm", windowMinutes: 5, perCall: 0.29 }, f)).map((k) => k[0])).toEqual(["lookup", "search"]);
    expect(conditionsOf({ kind: "retry_storm", windowMinutes: 5, perMinute: 7, perCall: 4 }, f)).toEqual([]);
  });

  it("refusal spike: at least minCount and at least factor times the previous window (a quiet previous window counts as 0)", () => {
    const f = facts({
      tools: [tool("a", { refusals: 6, previousRefusals: 2 }), tool("b", { refusals: 5, previousRefusals: 2 }), tool("c", { refusals: 4, previousRefusals: 0 }), tool("d", { refusals: 3 })],
    });
    expect(keys(conditionsOf({ kind: "refusal_spike", windowMinutes: 15, factor: 3, minCount: 4 }, f))).toEqual([
      ["a", "", "6 refusals or declines in 15 min, 2 in the window before"],
      ["c", "", "4 refusals or declines in 15 min, 0 in the window before"],
    ]);
  });

  it("failed closed: at or above the count", () => {
    const f = facts({ tools: [tool("a", { failedClosed: 3 }), tool("b", { failedClosed: 2 })] });
    expect(keys(conditionsOf({ kind: "failed_closed", windowMinutes: 60, threshold: 3 }, f))).toEqual([["a", "", "3 attempts failed closed in 60 min"]]);
  });

  it("new code: one key per tool and code, optionally for one tool", () => {
    const f = facts({ newCodes: [{ tool: "lookup", code: "quota_exceeded", firstSeen: Date.UTC(2026, 0, 2, 3, 4, 5) }, { tool: "search", code: "bad_query", firstSeen: 0 }] });
    const all = conditionsOf({ kind: "new_code" }, f);
    expect(all.map((c) => c.key)).toEqual([alertKey("lookup", "quota_exceeded"), alertKey("search", "bad_query")]);
    expect(all[0]!.value).toBe("first seen at 2026-01-02T03:04:05.000Z");
    expect(conditionsOf({ kind: "new_code", tool: "search" }, f).map((c) => c.code)).toEqual(["bad_query"]);
  });

  it("drift: findings at or above the severity, one key per finding", () => {
    const drift = [
      { findingId: "f1", tool: "lookup", code: "upstream_timeout", kind: "repurposed" as const, severity: "critical" as const, sentence: "repurposed" },
      { findingId: "f2", tool: "lookup", code: "quota", kind: "behaviour" as const, severity: "high" as const, sentence: "behaviour changed" },
      { findingId: "f3", tool: "lookup", code: "gone", kind: "removed" as const, severity: "medium" as const, sentence: "removed" },
    ];
    expect(conditionsOf({ kind: "drift", minSeverity: "critical" }, facts({ drift })).map((c) => [c.code, c.value])).toEqual([["upstream_timeout", "critical: repurposed"]]);
    expect(conditionsOf({ kind: "drift", minSeverity: "high" }, facts({ drift })).map((c) => c.code)).toEqual(["upstream_timeout", "quota"]);
  });

  it("drift: a rule filtering by kind sees only findings of those kinds, model behaviour included", () => {
    const drift = [
      { findingId: "f1", tool: "lookup", code: "bad_date", kind: "model_behaviour" as const, severity: "medium" as const, sentence: "recovered less" },
      { findingId: "f2", tool: "lookup", code: "quota", kind: "behaviour" as const, severity: "medium" as const, sentence: "retry_after doubled" },
    ];
    expect(conditionsOf({ kind: "drift", minSeverity: "low", kinds: ["model_behaviour"] }, facts({ drift })).map((c) => [c.code, c.value])).toEqual([["bad_date", "medium: recovered less"]]);
    expect(conditionsOf({ kind: "drift", minSeverity: "low", kinds: ["behaviour", "model_behaviour"] }, facts({ drift })).map((c) => c.code)).toEqual(["bad_date", "quota"]);
    expect(conditionsOf({ kind: "drift", minSeverity: "low", kinds: ["removed"] }, facts({ drift }))).toEqual([]);
  });
});

describe("transitionsOf", () => {
  const held = { key: alertKey("lookup", ""), tool: "lookup", code: "", value: "60%" };
  it("fires a new condition, stays silent while it holds, resolves when it ends, and fires again after", () => {
    expect(transitionsOf([held], [])).toEqual([{ ...held, status: "firing" }]);
    expect(transitionsOf([held], [{ key: held.key, status: "firing" }])).toEqual([]);
    expect(transitionsOf([], [{ key: held.key, status: "firing" }])).toEqual([{ key: held.key, tool: "lookup", code: "", value: "no longer holds", status: "resolved" }]);
    expect(transitionsOf([], [{ key: held.key, status: "resolved" }])).toEqual([]);
    expect(transitionsOf([held], [{ key: held.key, status: "resolved" }])).toEqual([{ ...held, status: "firing" }]);
  });

  it("splits a drift key back into its tool and code on resolution", () => {
    const key = alertKey("lookup", "upstream_timeout", "f1");
    expect(key).toBe('["lookup","upstream_timeout","f1"]');
    expect(transitionsOf([], [{ key, status: "firing" }]).map((t) => [t.tool, t.code])).toEqual([["lookup", "upstream_timeout"]]);
  });
});

describe("ruleIsQuiet", () => {
  it("is quiet when muted or snoozed past now", () => {
    expect(ruleIsQuiet({ muted: true, snoozedUntil: null }, 10)).toBe(true);
    expect(ruleIsQuiet({ muted: false, snoozedUntil: 11 }, 10)).toBe(true);
    expect(ruleIsQuiet({ muted: false, snoozedUntil: 10 }, 10)).toBe(false);
    expect(ruleIsQuiet({ muted: false, snoozedUntil: null }, 10)).toBe(false);
  });
});
