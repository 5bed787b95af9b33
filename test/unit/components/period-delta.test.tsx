import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CompareToggle, countDelta, PeriodDelta, rateDelta, ratioDelta } from "@/components/dashboard/period-delta";

describe("previous-period deltas", () => {
  it("says a count's change in percent, and a count that was zero as new", () => {
    expect(countDelta(12, 10)).toBe("+20% vs previous (10)");
    expect(countDelta(5, 10)).toBe("−50% vs previous (10)");
    expect(countDelta(2, 2)).toBe("+0% vs previous (2)");
    expect(countDelta(3, 0)).toBe("new vs previous period (was 0)");
    expect(countDelta(0, 0)).toBe("no change vs previous period");
  });

  it("says a rate's change in points, and only the previous rate when either side has none", () => {
    expect(rateDelta(1, 0.5)).toBe("+50.0 pts vs previous (50.0%)");
    expect(rateDelta(0.25, 0.3)).toBe("−5.0 pts vs previous (30.0%)");
    expect(rateDelta(null, 0.5)).toBe("previous period: 50.0%");
    expect(rateDelta(0.5, null)).toBe("previous period: —");
  });

  it("says a mean's change in its own unit", () => {
    expect(ratioDelta(1, 1.5)).toBe("−0.50 vs previous (1.50)");
    expect(ratioDelta(1.25, 1)).toBe("+0.25 vs previous (1.00)");
    expect(ratioDelta(1, null)).toBe("previous period: —");
  });

  it("renders the tile line and the toggle", () => {
    expect(renderToStaticMarkup(<PeriodDelta>x</PeriodDelta>)).toBe('<span class="delta">x</span>');
    const toggle = renderToStaticMarkup(<CompareToggle checked onChange={() => {}} />);
    expect(toggle).toContain('name="compare"');
    expect(toggle).toContain("checked");
    expect(toggle).toContain("Compare with the previous period");
  });
});
