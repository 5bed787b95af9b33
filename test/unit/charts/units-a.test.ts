import { describe, expect, it } from "vitest";
import { groupFindings } from "@/lib/charts/drift-groups";
import { formatCount, formatCountOf, formatPct, formatRatio, sumValues } from "@/lib/charts/format";
import { outcomeStyle } from "@/lib/charts/outcomes";
import { codeVar, OTHER_CODES_VAR, outcomeVar } from "@/lib/charts/palette";
import { withNearMarks } from "@/lib/charts/timeline-layout";
import { offscreenMarks, zoomAnchor, zoomView } from "@/lib/charts/timeline-viewport";
import type { DriftFinding } from "@/lib/contracts/drift";

describe("number formatting follows the locale (en-US here) and says units", () => {
  const nf = new Intl.NumberFormat(undefined);
  it("groups digits and formats percentages and ratios with the runtime locale", () => {
    expect(formatCount(1234567)).toBe(nf.format(1234567));
    expect(formatPct(0.356)).toBe(new Intl.NumberFormat(undefined, { style: "percent", minimumFractionDigits: 1 }).format(0.356));
    expect(formatPct(null)).toBe("—");
    expect(formatRatio(1.25)).toBe(new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 }).format(1.25));
  });
  it("pluralises: 1 attempt, 2 attempts, 0 calls", () => {
    expect(formatCountOf(1, "attempt")).toBe("1 attempt");
    expect(formatCountOf(2, "attempt")).toBe("2 attempts");
    expect(formatCountOf(0, "call")).toBe("0 calls");
    expect(formatCountOf(1, "final error")).toBe("1 final error");
  });
  it("sums a chart's totals, for the count said next to it", () => {
    expect(sumValues({ a: 120, b: 100 })).toBe(220);
  });
});

describe("palette use", () => {
  it("draws outcomes with their own variable, unknown ones with the unknown look", () => {
    expect(outcomeStyle("timed_out").color).toBe("var(--c-timed_out)");
    expect(outcomeStyle("failed").color).toBe("var(--c-failed)");
    expect(outcomeStyle("something_new").color).toBe("var(--c-unknown)");
    expect(outcomeVar("")).toBe("var(--c-unknown)");
  });
  it("gives codes their own variables, cycling, and other codes the last one", () => {
    expect(codeVar(0)).toBe("var(--code-1)");
    expect(codeVar(7)).toBe("var(--code-1)");
    expect(OTHER_CODES_VAR).toBe("var(--code-7)");
  });
});

describe("timeline fit and zoom", () => {
  it("widens the data's extent to run marks within half its span, not to a far deadline", () => {
    expect(withNearMarks({ start: 100, end: 3900 }, [0, 4000, 600_000])).toEqual({ start: 0, end: 4000 });
    expect(withNearMarks({ start: 100, end: 3900 }, [0, null, null])).toEqual({ start: 0, end: 3900 });
    expect(withNearMarks({ start: 60_000, end: 61_000 }, [0, 62_000])).toEqual({ start: 60_000, end: 61_000 });
  });
  it("zooms around the selected attempt, else around the data's middle", () => {
    expect(zoomAnchor({ start: 3300, end: 3900 }, { start: 0, end: 4000 })).toBe(3600);
    expect(zoomAnchor(null, { start: 0, end: 4000 })).toBe(2000);
    const bounds = { start: -80, end: 600_000 };
    const view = { start: -80, end: 4080 };
    const zoomed = zoomView(view, 0.5, 3600, bounds);
    // The anchor keeps its place on screen: same fraction of the view before and after.
    expect((3600 - zoomed.start) / (zoomed.end - zoomed.start)).toBeCloseTo((3600 - view.start) / (view.end - view.start), 9);
    expect(zoomed.end - zoomed.start).toBe(2080);
  });
  it("says which marks are beyond the view, on which side and how far", () => {
    const marks = [{ key: "deadline", at: 600_000 }, { key: "end", at: 4000 }, { key: "start", at: 0 }];
    expect(offscreenMarks(marks, { start: -80, end: 4080 })).toEqual([{ key: "deadline", side: "right", distanceMs: 595_920 }]);
    expect(offscreenMarks(marks, { start: 1000, end: 2000 })).toEqual([
      { key: "deadline", side: "right", distanceMs: 598_000 },
      { key: "end", side: "right", distanceMs: 2000 },
      { key: "start", side: "left", distanceMs: 1000 },
    ]);
  });
});

describe("drift findings grouped per code, tool and release pair", () => {
  const f = (id: string, over: Partial<DriftFinding>): DriftFinding =>
    ({ id, kind: "repurposed", code: "c", tool: "t", renamedTo: null, fromRelease: "1.0.0", toRelease: "2.0.0", ...over }) as DriftFinding;
  it("puts two findings on one code of one tool between the same releases on one card, in order", () => {
    const groups = groupFindings([f("1", {}), f("2", { tool: "u" }), f("3", { kind: "behaviour" })]);
    expect(groups.map((g) => g.findings.map((x) => x.id))).toEqual([["1", "3"], ["2"]]);
    expect(groups[0]!.lead.id).toBe("1");
  });
  it("keeps different release pairs and renames apart", () => {
    const groups = groupFindings([f("1", {}), f("2", { fromRelease: "2.0.0", toRelease: "3.0.0" }), f("3", { renamedTo: "d" })]);
    expect(groups).toHaveLength(3);
  });
});
