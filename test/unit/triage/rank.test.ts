import { describe, expect, it } from "vitest";
import { rankIssues, type Rankable } from "@/lib/triage/rank";

const issue = (id: string, over: Partial<Rankable> = {}): Rankable => ({ id, state: "open", unrecovered: 0, runs: 1, failures: 1, lastSeen: 0, ...over });

describe("impact ranking", () => {
  it("puts regressions first, then weighs unrecovered failures, runs, failures, recency and id", () => {
    const ranked = rankIssues([
      issue("resolved-big", { state: "resolved", unrecovered: 99 }),
      issue("many-failures", { failures: 50 }),
      issue("many-runs", { runs: 5 }),
      issue("unrecovered", { unrecovered: 2 }),
      issue("regressed-small", { state: "regressed" }),
      issue("ignored", { state: "ignored", unrecovered: 50 }),
      issue("recent-b", { lastSeen: 10 }),
      issue("recent-a", { lastSeen: 10 }),
    ]);
    expect(ranked.map((i) => i.id)).toEqual(["regressed-small", "unrecovered", "many-runs", "many-failures", "recent-a", "recent-b", "ignored", "resolved-big"]);
  });
});
