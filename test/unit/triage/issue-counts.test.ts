import { describe, expect, it } from "vitest";
import { countIssueStates } from "@/lib/triage/issue-counts";

describe("countIssueStates", () => {
  it("counts each state, unresolved being open and regressed together", () => {
    expect(countIssueStates(["open", "regressed", "open", "ignored", "resolved", "regressed", "open"])).toEqual({ open: 3, regressed: 2, resolved: 1, ignored: 1, unresolved: 5 });
  });

  it("answers zeros for a project without issues, and reads any iterable once", () => {
    expect(countIssueStates([])).toEqual({ open: 0, regressed: 0, resolved: 0, ignored: 0, unresolved: 0 });
    expect(countIssueStates(new Set(["resolved", "ignored"] as const))).toEqual({ open: 0, regressed: 0, resolved: 1, ignored: 1, unresolved: 0 });
  });
});
