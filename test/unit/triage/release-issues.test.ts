import { describe, expect, it } from "vitest";
import { openTriage, type Triage } from "@/lib/triage/issue-state";
import { releaseIssues, type IssueInReleases } from "@/lib/triage/release-issues";

const at = (h: number) => h * 3_600_000;
const r = (release: string, h: number, failures: number) => ({ release, firstSeen: at(h), lastSeen: at(h) + 1, failures });
const issue = (id: string, triage: Partial<Triage>, releases: IssueInReleases["releases"]): IssueInReleases => ({ id, tool: "t", code: id, triage: { ...openTriage(), ...triage }, releases });

describe("releaseIssues", () => {
  const issues = [
    issue("born-here", {}, [r("1.5.0", 5, 2)]),
    issue("older", {}, [r("1.4.0", 1, 1), r("1.5.0", 5, 9)]),
    issue("came-back", { state: "regressed", resolveMode: "next_release", resolveRelease: "1.4.0", resolvedAt: at(2) }, [r("1.4.0", 1, 3), r("1.5.0", 5, 4)]),
    // Resolved in the release after 1.5.0 and regressed by 1.6.0: its 1.5.0 failures regress nothing.
    issue("came-back-later", { state: "regressed", resolveMode: "next_release", resolveRelease: "1.5.0", resolvedAt: at(6) }, [r("1.5.0", 5, 1), r("1.6.0", 7, 1)]),
    issue("fixed-after-previous", { state: "resolved", resolveMode: "next_release", resolveRelease: "1.4.0", resolvedAt: at(2) }, [r("1.4.0", 1, 6)]),
    issue("fixed-in-this", { state: "resolved", resolveMode: "in_release", resolveRelease: "1.5.0", resolvedAt: at(2) }, [r("1.4.0", 1, 2)]),
    issue("fixed-elsewhere", { state: "resolved", resolveMode: "in_release", resolveRelease: "1.6.0", resolvedAt: at(2) }, [r("1.4.0", 1, 2)]),
  ];

  it("lists what a release brought, brought back and fixed against the one before it", () => {
    const out = releaseIssues(issues, "1.5.0", "1.4.0", new Set(["1.4.0"]), at(10));
    expect(out.new.map((i) => [i.id, i.failures])).toEqual([["born-here", 2], ["came-back-later", 1]]);
    expect(out.regressed.map((i) => [i.id, i.state, i.failures])).toEqual([["came-back", "regressed", 4]]);
    expect(out.resolved.map((i) => [i.id, i.failures])).toEqual([["fixed-after-previous", 6], ["fixed-in-this", 2]]);
  });

  it("counts everything failing in the first release as new, and nothing as resolved without a previous release", () => {
    const out = releaseIssues(issues, "1.4.0", null, new Set(), at(10));
    expect(out.new.map((i) => i.id)).toEqual(["fixed-after-previous", "came-back", "fixed-elsewhere", "fixed-in-this", "older"]);
    expect(out.regressed).toEqual([]);
    expect(out.resolved).toEqual([]);
  });
});
