import { describe, expect, it } from "vitest";
import { prepareCodeReleaseHistory } from "@/lib/charts/code-release-history";
import { classOutcome, errorClassLabel } from "@/lib/charts/error-classes";
import type { CodeReleasePoint, CodeReleaseHistory, DriftFinding, DriftKind } from "@/lib/contracts/drift";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 2);

function point(release: string, day: number, over: Partial<CodeReleasePoint>): CodeReleasePoint {
  return {
    release, releaseKind: "tool_version", firstSeen: T0 + day * DAY, tools: ["search"], calls: 0, spans: 0, errors: 0,
    byClass: {}, byOutcome: {}, retryable: { retryable: 0, permanent: 0 }, recoveryRate: null, retryAfterMedianMs: null, ...over,
  };
}

function finding(kind: DriftKind, fromRelease: string, toRelease: string, over: Partial<DriftFinding> = {}): DriftFinding {
  return {
    id: `${kind}-${toRelease}-${over.tool ?? "search"}`, kind, metric: null, severity: "high", verdict: "violation", bump: "minor",
    code: "upstream_timeout", renamedTo: null, tool: "search", fromRelease, toRelease, beforeCalls: 1, afterCalls: 1, changes: [],
    direction: null, sentence: `${kind} at ${toRelease}`, before: null, after: null, exampleRuns: { before: [], after: [] }, ...over,
  };
}

// 1.10.0 after 1.4.0: release order is SemVer precedence, not string order.
const history: CodeReleaseHistory = {
  code: "upstream_timeout",
  tool: null,
  order: "semver",
  ruleEdits: [],
  points: [
    point("1.3.0", 0, {
      calls: 40, spans: 40, byClass: { ToolFailure: 30, ToolRefusal: 10 }, byOutcome: { failed: 30, declined: 10 },
      retryable: { retryable: 30, permanent: 10 }, recoveryRate: 0.25, retryAfterMedianMs: 2000,
    }),
    point("1.4.0", 3, {
      calls: 38, spans: 38, byClass: { ToolNotPermittedError: 8, ToolFailure: 30 }, byOutcome: { refused: 8, failed: 30 },
      retryable: { retryable: 0, permanent: 38 }, recoveryRate: 0,
    }),
    point("1.10.0", 5, { calls: 5, errors: 5, byClass: { CustomError: 5 }, byOutcome: {} }),
  ],
};

describe("prepareCodeReleaseHistory", () => {
  it("keeps release order, fills every series with zeros and computes the retryable share", () => {
    const d = prepareCodeReleaseHistory(history, []);
    expect(d.order).toBe("semver");
    expect(d.rows.map((r) => r.release)).toEqual(["1.3.0", "1.4.0", "1.10.0"]);
    expect(d.classSeries).toEqual(["ToolFailure", "ToolRefusal", "ToolNotPermittedError", "CustomError"]);
    expect(d.outcomeSeries).toEqual(["failed", "declined", "refused"]);
    expect(d.rows[0]).toEqual({
      release: "1.3.0", absent: false, calls: 40,
      byClass: { ToolFailure: 30, ToolRefusal: 10, ToolNotPermittedError: 0, CustomError: 0 },
      byOutcome: { failed: 30, declined: 10, refused: 0 },
      retryableShare: 0.75, recoveryRate: 0.25, retryAfterMedianMs: 2000,
    });
    expect(d.rows.map((r) => r.retryableShare)).toEqual([0.75, 0, null]);
    expect(d.rows[2]!.byOutcome).toEqual({ failed: 0, declined: 0, refused: 0 });
    expect(d.classTotals).toEqual({ ToolFailure: 60, ToolRefusal: 10, ToolNotPermittedError: 8, CustomError: 5 });
    expect(d.outcomeTotals).toEqual({ failed: 60, declined: 10, refused: 8 });
    expect(d.changePoints).toEqual([]);
  });

  it("places each change finding on its after release, numbered in axis order, grouping one release's findings", () => {
    const f = [
      finding("behaviour", "1.4.0", "1.10.0"),
      finding("repurposed", "1.3.0", "1.4.0"),
      finding("added", "1.3.0", "1.4.0"),
      finding("repurposed", "1.3.0", "1.4.0", { tool: "lookup" }),
    ];
    const d = prepareCodeReleaseHistory(history, f);
    expect(d.changePoints).toEqual([
      {
        release: "1.4.0",
        findings: [
          { n: 1, id: "repurposed-1.4.0-search", kind: "repurposed", tool: "search", fromRelease: "1.3.0", sentence: "repurposed at 1.4.0" },
          { n: 2, id: "repurposed-1.4.0-lookup", kind: "repurposed", tool: "lookup", fromRelease: "1.3.0", sentence: "repurposed at 1.4.0" },
        ],
      },
      { release: "1.10.0", findings: [{ n: 3, id: "behaviour-1.10.0-search", kind: "behaviour", tool: "search", fromRelease: "1.4.0", sentence: "behaviour at 1.10.0" }] },
    ]);
    expect(d.rows.every((r) => !r.absent)).toBe(true);
  });

  it("inserts the release a code was renamed away in as an explicit zero, in semver order", () => {
    const renamed = finding("renamed", "1.3.0", "1.5.0", { renamedTo: "upstream_slow", after: null });
    const d = prepareCodeReleaseHistory(history, [renamed]);
    expect(d.rows.map((r) => [r.release, r.absent, r.calls, r.retryableShare])).toEqual([
      ["1.3.0", false, 40, 0.75],
      ["1.4.0", false, 38, 0],
      ["1.5.0", true, 0, null],
      ["1.10.0", false, 5, null],
    ]);
    expect(d.rows[2]!.byClass).toEqual({ ToolFailure: 0, ToolRefusal: 0, ToolNotPermittedError: 0, CustomError: 0 });
    expect(d.changePoints.map((c) => [c.release, c.findings.map((x) => x.n)])).toEqual([["1.5.0", [1]]]);
  });

  it("returns an empty chart for an empty history, whatever the findings", () => {
    const empty: CodeReleaseHistory = { code: "x", tool: null, order: "first_seen", points: [], ruleEdits: [] };
    expect(prepareCodeReleaseHistory(empty, [finding("repurposed", "1", "2")])).toEqual({
      order: "first_seen", rows: [], classSeries: [], outcomeSeries: [], classTotals: {}, outcomeTotals: {}, changePoints: [],
    });
  });
});

describe("error class looks", () => {
  it("draws ToolRefusal as declined and ToolNotPermittedError as refused, with different words", () => {
    expect([classOutcome("ToolRefusal"), classOutcome("ToolNotPermittedError"), classOutcome("Mystery")]).toEqual(["declined", "refused", ""]);
    expect(errorClassLabel("ToolRefusal")).toBe("ToolRefusal (declined: tool said no)");
    expect(errorClassLabel("ToolNotPermittedError")).toBe("ToolNotPermittedError (refused: permission said no)");
  });
});
