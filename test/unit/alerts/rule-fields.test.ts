import { describe, expect, it } from "vitest";
import { DEFAULT_FIELDS, describeRuleParams, fieldsFromParams, paramsFromFields } from "@/lib/alerts/rule-fields";

describe("rule form fields", () => {
  it("turn a failure-rate threshold typed in percent into the API's fraction and back", () => {
    const made = paramsFromFields("failure_rate", { ...DEFAULT_FIELDS, tool: " lookup ", windowMinutes: "15", thresholdPercent: "12.5", minCalls: "40" });
    expect(made).toEqual({ ok: true, params: { kind: "failure_rate", tool: "lookup", windowMinutes: 15, threshold: 0.125, minCalls: 40 } });
    expect(fieldsFromParams({ kind: "failure_rate", windowMinutes: 10, threshold: 0.07, minCalls: 5 })).toMatchObject({ thresholdPercent: "7", minCalls: "5", tool: "" });
  });

  it("name the field of each problem, in the form's own units", () => {
    expect(paramsFromFields("failure_rate", { ...DEFAULT_FIELDS, thresholdPercent: "150", minCalls: "" })).toEqual({ ok: false, issues: [{ field: "minCalls", message: "required" }] });
    expect(paramsFromFields("failure_rate", { ...DEFAULT_FIELDS, thresholdPercent: "150" })).toEqual({ ok: false, issues: [{ field: "thresholdPercent", message: "between 0 and 100 (exclusive)" }] });
    expect(paramsFromFields("failed_closed", { ...DEFAULT_FIELDS, count: "0" })).toEqual({ ok: false, issues: [{ field: "count", message: "Too small: expected number to be >=1" }] });
    expect(paramsFromFields("retry_storm", { ...DEFAULT_FIELDS, perMinute: "", perCall: "" })).toEqual({ ok: false, issues: [{ field: "form", message: "give perMinute, perCall or both" }] });
  });

  it("build every kind, and read each rule as a sentence", () => {
    const built = (["new_code", "drift", "retry_storm", "refusal_spike", "failed_closed"] as const).map((k) => paramsFromFields(k, { ...DEFAULT_FIELDS, driftKinds: ["model_behaviour"] }));
    expect(built.map((r) => (r.ok ? describeRuleParams(r.params) : r.issues))).toEqual([
      "a code first seen on any tool after the rule was created",
      "a drift finding of severity high or above (model_behaviour)",
      "more than 30 retries a minute in 10 min, on every tool",
      "at least 5 refusals or declines in 10 min and 3× the 10 min before, on every tool",
      "at least 3 attempts failed closed in 10 min, on every tool",
    ]);
    expect(describeRuleParams({ kind: "failure_rate", tool: "lookup", windowMinutes: 60, threshold: 0.5, minCalls: 4 })).toBe("more than 50% of calls failed in 60 min (at least 4 calls), on `lookup`");
  });
});
