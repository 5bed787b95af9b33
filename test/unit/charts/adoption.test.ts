import { describe, expect, it } from "vitest";
import { OTHER_RELEASES, prepareAdoption } from "@/lib/charts/adoption";

const DAY = 86_400_000;
const FROM = 20_000 * DAY;

describe("prepareAdoption", () => {
  it("gives every day a row, shares per release, and a gap (not a zero) on a day without runs", () => {
    const data = prepareAdoption(
      { from: FROM, to: FROM + 3 * DAY, stepMs: DAY, days: [{ at: FROM, runs: { "1.4.0": 3, "1.5.0": 1 } }, { at: FROM + 2 * DAY, runs: { "1.5.0": 4 } }] },
      ["1.4.0", "1.5.0"],
    );
    expect(data.series).toEqual([{ key: "1.4.0", label: "1.4.0" }, { key: "1.5.0", label: "1.5.0" }]);
    expect(data.rows).toEqual([
      { at: FROM, total: 4, gap: false, runs: { "1.4.0": 3, "1.5.0": 1 }, shares: { "1.4.0": 0.75, "1.5.0": 0.25 } },
      { at: FROM + DAY, total: 0, gap: true, runs: { "1.4.0": 0, "1.5.0": 0 }, shares: { "1.4.0": null, "1.5.0": null } },
      { at: FROM + 2 * DAY, total: 4, gap: false, runs: { "1.4.0": 0, "1.5.0": 4 }, shares: { "1.4.0": 0, "1.5.0": 1 } },
    ]);
    expect(data.empty).toBe(false);
  });

  it("keeps the newest releases in release order and sums older ones and runs without a release as other", () => {
    const data = prepareAdoption(
      { from: FROM, to: FROM + DAY, stepMs: DAY, days: [{ at: FROM, runs: { "": 1, "1.2.0": 1, "1.10.0": 2, "1.9.0": 4 } }] },
      ["1.2.0", "1.9.0", "1.10.0"],
      2,
    );
    expect(data.series.map((s) => s.key)).toEqual(["1.9.0", "1.10.0", OTHER_RELEASES]);
    expect(data.rows[0]!.runs).toEqual({ "1.9.0": 4, "1.10.0": 2, [OTHER_RELEASES]: 2 });
    expect(data.rows[0]!.shares).toEqual({ "1.9.0": 0.5, "1.10.0": 0.25, [OTHER_RELEASES]: 0.25 });
  });

  it("says empty when no day of the window has a run", () => {
    const data = prepareAdoption({ from: FROM, to: FROM + 2 * DAY, stepMs: DAY, days: [] }, []);
    expect(data).toEqual({ series: [], rows: [expect.objectContaining({ gap: true }), expect.objectContaining({ gap: true })], empty: true });
  });
});
