// The SLO form's fields to and from the API's definition, and the budget chart's preparation.
import { describe, expect, it } from "vitest";
import { DEFAULT_FIELDS, describeRuleParams, fieldsFromParams, paramsFromFields } from "@/lib/alerts/rule-fields";
import { prepareSloBudget } from "@/lib/charts/slo-budget";
import { DEFAULT_SLO_FIELDS, sloFieldsOf, sloFromFields } from "@/lib/slo/slo-fields";

describe("sloFromFields", () => {
  it("reads tools as a comma-separated list and the objective in percent", () => {
    expect(sloFromFields({ ...DEFAULT_SLO_FIELDS, name: " Search ", tools: "search_*, book ,", objectivePercent: "99.95", countDeclines: true })).toEqual({
      ok: true,
      value: { name: "Search", tools: ["search_*", "book"], objective: 0.9995, windowDays: 28, countDeclines: true, countRecovered: false },
    });
  });
  it("names each problem next to its field, in the form's units", () => {
    expect(sloFromFields({ ...DEFAULT_SLO_FIELDS, objectivePercent: "100", windowDays: "1.5" })).toEqual({
      ok: false,
      issues: { name: "required", tools: "at least one tool name or glob (search_*)", objectivePercent: "a percentage between 0 and 100 (exclusive), e.g. 99.5", windowDays: "whole days from 1 to 90" },
    });
  });
  it("shows a stored SLO as it was typed", () => {
    const slo = { id: 1, project: "p", name: "S", tools: ["a", "b*"], objective: 0.995, windowDays: 7, countDeclines: false, countRecovered: true, createdAt: 0, updatedAt: 0 };
    expect(sloFieldsOf(slo)).toEqual({ name: "S", tools: "a, b*", objectivePercent: "99.5", windowDays: "7", countDeclines: false, countRecovered: true });
    expect(sloFromFields(sloFieldsOf(slo))).toEqual({ ok: true, value: { name: "S", tools: ["a", "b*"], objective: 0.995, windowDays: 7, countDeclines: false, countRecovered: true } });
  });
});

describe("an SLO burn rule's fields", () => {
  it("read the chosen SLO's id, and name a missing one", () => {
    expect(paramsFromFields("slo_burn", { ...DEFAULT_FIELDS, slo: "3" })).toEqual({ ok: true, params: { kind: "slo_burn", slo: 3 } });
    expect(paramsFromFields("slo_burn", DEFAULT_FIELDS)).toEqual({ ok: false, issues: [{ field: "slo", message: "required" }] });
    expect(fieldsFromParams({ kind: "slo_burn", slo: 3 }).slo).toBe("3");
    expect(describeRuleParams({ kind: "slo_burn", slo: 3 }, "Search")).toBe(
      "an SLO burn rate of 14.4× or more over both 1 h and 5 min (page), or 6× or more over both 6 h and 30 min (ticket), for SLO “Search”",
    );
  });
});

describe("prepareSloBudget", () => {
  it("turns the budget into percent and widens the axis below zero to the next 50 % when overspent", () => {
    expect(
      prepareSloBudget([
        { at: 0, calls: 10, bad: 0, budgetRemaining: 1 },
        { at: 3_600_000, calls: 0, bad: 0, budgetRemaining: 1 },
        { at: 7_200_000, calls: 10, bad: 3, budgetRemaining: -0.2734 },
      ]),
    ).toEqual({
      rows: [
        { t: 0, left: 100, bad: 0, calls: 10 },
        { t: 3_600_000, left: 100, bad: 0, calls: 0 },
        { t: 7_200_000, left: -27.3, bad: 3, calls: 10 },
      ],
      domain: [-50, 100],
      empty: false,
    });
  });
  it("is empty when no call came in the window (nothing spent: a zero, not a gap)", () => {
    expect(prepareSloBudget([{ at: 0, calls: 0, bad: 0, budgetRemaining: 1 }])).toEqual({ rows: [{ t: 0, left: 100, bad: 0, calls: 0 }], domain: [0, 100], empty: true });
  });
});
