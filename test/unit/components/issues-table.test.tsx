// The issues table's sorting: impact (the API's order, regressions on top) by default, any column on
// request with every state sorted together, through the shared DataTable headers.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { IssuesTable } from "@/components/issues/issues-table";
import type { IssueSummary } from "@/lib/contracts/issues";
import { rankIssues } from "@/lib/triage/rank";
import { sortIssues } from "@/lib/triage/sort-issues";

const H = 3_600_000;
const issue = (id: string, over: Partial<IssueSummary>): IssueSummary => ({
  id, tool: "search", code: id, state: "open", resolution: null, ignore: null, assignee: null, failures: 1, unrecovered: 0, runs: 1, retries: 0, waitMs: 0,
  trend: { current: 0, previous: 0 }, firstSeen: 0, lastSeen: H, releases: { first: "1.0.0", last: "1.0.0", count: 1 }, group: null, ...over,
});
const ranked = rankIssues([
  issue("quota", { unrecovered: 9, runs: 9, failures: 40, lastSeen: 5 * H, assignee: { userId: "u2", name: "Bo" } }),
  issue("timeout", { tool: "book", unrecovered: 2, runs: 3, failures: 90, lastSeen: 2 * H, retries: 4, waitMs: 8000 }),
  issue("back", { state: "regressed", unrecovered: 0, runs: 1, failures: 2, lastSeen: 9 * H, assignee: { userId: "u1", name: "Ana" } }),
  issue("gone", { state: "resolved", unrecovered: 20, runs: 20, failures: 60, lastSeen: H }),
]);
const ids = (rows: IssueSummary[]) => rows.map((i) => i.id);
const rendered = (sort: string | null, dir: string | null) => {
  const html = renderToStaticMarkup(<IssuesTable ranked={ranked} sort={sort} dir={dir} onSort={() => {}} href={(id) => `/issues?issue=${id}`} selected="quota" />);
  return { html, order: [...html.matchAll(/<tr data-issue="([^"]+)"/g)].map((m) => m[1]) };
};

describe("sorting the issues table", () => {
  it("keeps impact by default: regressed on top, then unrecovered failures within a state", () => {
    expect(ids(ranked)).toEqual(["back", "quota", "timeout", "gone"]);
    const { html, order } = rendered(null, null);
    expect(order).toEqual(["back", "quota", "timeout", "gone"]);
    expect(html).toContain('<th aria-sort="descending" title="rank by impact: regressions first, then unrecovered failures, runs, failures" scope="col"><button type="button">#</button></th>');
    expect(html).toContain('<tr data-issue="quota" data-selected="true"><td>2</td>');
    // An unknown column falls back to impact.
    expect(rendered("bogus", "desc").order).toEqual(["back", "quota", "timeout", "gone"]);
    expect(rendered("impact", "asc").order).toEqual(["gone", "timeout", "quota", "back"]);
  });

  it("sorts by a column the user picks, every state together, ties in impact order", () => {
    expect(rendered("failures", "desc").order).toEqual(["timeout", "gone", "quota", "back"]);
    expect(rendered("failures", "asc").order).toEqual(["back", "quota", "gone", "timeout"]);
    expect(rendered("last_seen", "desc").order).toEqual(["back", "quota", "timeout", "gone"]);
    expect(rendered("unrecovered", "desc").order).toEqual(["gone", "quota", "timeout", "back"]);
    // Same tool name for three: then by code.
    expect(rendered("issue", "asc").order).toEqual(["timeout", "back", "gone", "quota"]);
    const byRuns = rendered("runs", "asc");
    expect(byRuns.order).toEqual(["back", "timeout", "quota", "gone"]);
    expect(byRuns.html).toContain('<th aria-sort="ascending" scope="col"><button type="button">Runs</button></th>');
  });

  it("puts the unassigned after every name in both directions", () => {
    expect(ids(sortIssues(ranked, "assignee", "asc"))).toEqual(["back", "quota", "timeout", "gone"]);
    expect(ids(sortIssues(ranked, "assignee", "desc"))).toEqual(["quota", "back", "timeout", "gone"]);
    expect(ids(sortIssues(ranked, "retries", "desc"))).toEqual(["timeout", "back", "quota", "gone"]);
  });
});
