import { describe, expect, it } from "vitest";
import { fitView, makeScale, panView, timeTicks, visibleRows, zoomView } from "@/lib/charts/timeline-viewport";

describe("timeline viewport", () => {
  it("renders only the rows in the scroll viewport plus overscan", () => {
    expect(visibleRows(0, 600, 11_000, 28, 5)).toEqual({ first: 0, end: 27 });
    expect(visibleRows(28_000, 600, 11_000, 28, 5)).toEqual({ first: 995, end: 1027 });
    expect(visibleRows(307_700, 600, 11_000, 28, 5)).toEqual({ first: 10_984, end: 11_000 });
    expect(visibleRows(0, 600, 0, 28, 5)).toEqual({ first: 0, end: 0 });
  });

  it("scales, fits, zooms around an anchor and pans within bounds", () => {
    const x = makeScale({ start: 1000, end: 3000 }, 800);
    expect([x(1000), x(2000), x(3000)]).toEqual([0, 400, 800]);
    const bounds = fitView({ start: 0, end: 10_000 });
    expect(bounds).toEqual({ start: -200, end: 10_200 });
    expect(zoomView(bounds, 0.5, 5000, bounds)).toEqual({ start: 2400, end: 7600 });
    expect(zoomView({ start: 0, end: 1000 }, 0.5, 0, bounds)).toEqual({ start: 0, end: 500 });
    expect(zoomView({ start: 0, end: 1000 }, 100, 0, bounds)).toEqual(bounds);
    expect(panView({ start: 0, end: 1000 }, 500, bounds)).toEqual({ start: 500, end: 1500 });
    expect(panView({ start: 0, end: 1000 }, -5000, bounds)).toEqual({ start: -200, end: 800 });
    expect(panView({ start: 9000, end: 10_000 }, 5000, bounds)).toEqual({ start: 9200, end: 10_200 });
  });

  it("chooses round tick steps at least 80 px apart", () => {
    expect(timeTicks({ start: 0, end: 10_000 }, 800)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000]);
    expect(timeTicks({ start: -150, end: 900 }, 400)).toEqual([0, 500]);
    expect(timeTicks({ start: -1200, end: 900 }, 400)).toEqual([-1000, -500, 0, 500]);
  });
});
