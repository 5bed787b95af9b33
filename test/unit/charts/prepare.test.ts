import { describe, expect, it } from "vitest";
import { prepareAttemptsBars } from "@/lib/charts/attempts";
import { callsByAttempts } from "@/db/queries/get-tool-detail";
import { NO_CODE, OTHER_CODES, prepareCodeStack } from "@/lib/charts/code-series";
import { prepareDelayHistogram } from "@/lib/charts/delay-histogram";
import { formatMs, formatPct } from "@/lib/charts/format";
import { prepareOutcomeSeries } from "@/lib/charts/outcome-series";
import { bucketStarts, fillBuckets } from "@/lib/charts/time-buckets";
import { topN } from "@/lib/charts/top-n";

const H = 3_600_000;
const T0 = Date.UTC(2026, 0, 10);
const window = { from: T0, to: T0 + 4 * H, stepMs: H };

describe("time buckets", () => {
  it("lists every bucket start of the window", () => {
    expect(bucketStarts(window)).toEqual([T0, T0 + H, T0 + 2 * H, T0 + 3 * H]);
  });

  it("fills missing past buckets with zeros and future buckets with gaps", () => {
    const rows = fillBuckets([{ t: T0 + H, s: "a", v: 3 }, { t: T0 + H, s: "a", v: 2 }], window, (p) => p.s, (p) => p.v, ["a", "b"], T0 + 2 * H);
    expect(rows).toEqual([
      { t: T0, gap: false, values: { a: 0, b: 0 } },
      { t: T0 + H, gap: false, values: { a: 5, b: 0 } },
      { t: T0 + 2 * H, gap: false, values: { a: 0, b: 0 } },
      { t: T0 + 3 * H, gap: true, values: { a: null, b: null } },
    ]);
  });
});

describe("prepareOutcomeSeries", () => {
  it("keeps declined and refused as separate series in legend order with totals", () => {
    const data = prepareOutcomeSeries(
      [
        { t: T0, outcome: "refused", attempts: 2 },
        { t: T0, outcome: "ok", attempts: 5 },
        { t: T0 + 2 * H, outcome: "declined", attempts: 1 },
      ],
      window,
      T0 + 10 * H,
    );
    expect(data.series).toEqual(["ok", "declined", "refused"]);
    expect(data.totals).toEqual({ refused: 2, ok: 5, declined: 1 });
    expect(data.rows).toEqual([
      { t: T0, gap: false, ok: 5, declined: 0, refused: 2 },
      { t: T0 + H, gap: false, ok: 0, declined: 0, refused: 0 },
      { t: T0 + 2 * H, gap: false, ok: 0, declined: 1, refused: 0 },
      { t: T0 + 3 * H, gap: false, ok: 0, declined: 0, refused: 0 },
    ]);
  });

  it("has no series and all-zero rows without data", () => {
    const data = prepareOutcomeSeries([], window, T0 + 10 * H);
    expect(data.series).toEqual([]);
    expect(data.rows).toHaveLength(4);
  });
});

describe("topN and prepareCodeStack", () => {
  it("keeps the n largest (ties by name) and sums the rest", () => {
    expect(topN([["b", 2], ["a", 2], ["c", 5], ["d", 1]] as [string, number][], 2, (x) => x[0], (x) => x[1])).toEqual({
      names: ["c", "a"], otherValue: 3, otherCount: 2,
    });
  });

  it("stacks the top codes and folds the rest into one series", () => {
    const data = prepareCodeStack(
      [
        { t: T0, code: "x", failures: 4 },
        { t: T0, code: "y", failures: 1 },
        { t: T0 + H, code: "z", failures: 2 },
        { t: T0 + H, code: "", failures: 3 },
      ],
      window,
      2,
      T0 + 2 * H,
    );
    expect(data.series).toEqual(["x", NO_CODE, OTHER_CODES]);
    expect(data.totals).toEqual({ x: 4, [NO_CODE]: 3, [OTHER_CODES]: 3 });
    expect(data.rows[0]).toEqual({ t: T0, gap: false, x: 4, [NO_CODE]: 0, [OTHER_CODES]: 1 });
    expect(data.rows[1]).toEqual({ t: T0 + H, gap: false, x: 0, [NO_CODE]: 3, [OTHER_CODES]: 2 });
    expect(data.rows[3]).toEqual({ t: T0 + 3 * H, gap: true, x: null, [NO_CODE]: null, [OTHER_CODES]: null });
  });

  it("adds the failures the server already summed to the other series, even when every named code fits", () => {
    const data = prepareCodeStack([{ t: T0, code: "x", failures: 4 }], window, 2, T0 + 2 * H, [
      { t: T0, failures: 5 },
      { t: T0 + H, failures: 7 },
    ]);
    expect(data.series).toEqual(["x", OTHER_CODES]);
    expect(data.totals).toEqual({ x: 4, [OTHER_CODES]: 12 });
    expect(data.rows[0]).toEqual({ t: T0, gap: false, x: 4, [OTHER_CODES]: 5 });
    expect(data.rows[1]).toEqual({ t: T0 + H, gap: false, x: 0, [OTHER_CODES]: 7 });
  });
});

describe("prepareDelayHistogram", () => {
  it("trims empty buckets at both ends and keeps inner zeros", () => {
    const bars = prepareDelayHistogram([
      { bucketMs: 500, retryAfter: 0, backoff: 0 },
      { bucketMs: 1000, retryAfter: 2, backoff: 0 },
      { bucketMs: 2000, retryAfter: 0, backoff: 0 },
      { bucketMs: 30_000, retryAfter: 0, backoff: 1 },
      { bucketMs: 60_000, retryAfter: 0, backoff: 0 },
    ]);
    expect(bars).toEqual([
      { bucketMs: 1000, label: "≤ 1 s", retryAfter: 2, backoff: 0 },
      { bucketMs: 2000, label: "≤ 2 s", retryAfter: 0, backoff: 0 },
      { bucketMs: 30_000, label: "≤ 30 s", retryAfter: 0, backoff: 1 },
    ]);
    expect(prepareDelayHistogram([{ bucketMs: 0, retryAfter: 0, backoff: 0 }])).toEqual([]);
  });
});

describe("prepareAttemptsBars and formats", () => {
  it("draws one bar per attempt count, a true zero where no call stopped, and caps the tail", () => {
    expect(prepareAttemptsBars([{ attempts: 1, calls: 7 }, { attempts: 3, calls: 2 }])).toEqual([
      { label: "1 attempt", calls: 7 },
      { label: "2 attempts", calls: 0 },
      { label: "3 attempts", calls: 2 },
    ]);
    expect(prepareAttemptsBars([{ attempts: 1, calls: 1 }, { attempts: 9, calls: 1 }, { attempts: 10, calls: 2 }, { attempts: 12, calls: 3 }]).slice(-2)).toEqual([
      { label: "9 attempts", calls: 1 },
      { label: "10+ attempts", calls: 5 },
    ]);
    expect(prepareAttemptsBars([])).toEqual([]);
  });

  it("derives exactly-k calls from spans per attempt number", () => {
    expect(callsByAttempts([{ attempt: 1, spans: 10 }, { attempt: 2, spans: 4 }, { attempt: 3, spans: 4 }, { attempt: 4, spans: 1 }])).toEqual([
      { attempts: 1, calls: 6 },
      { attempts: 3, calls: 3 },
      { attempts: 4, calls: 1 },
    ]);
  });

  it("formats durations and shares with units", () => {
    expect([formatMs(950), formatMs(2000), formatMs(1500), formatMs(90_000), formatMs(3_600_000), formatMs(null)]).toEqual([
      "950 ms", "2 s", "1.5 s", "1.5 min", "1 h", "—",
    ]);
    expect(formatPct(7 / 13)).toBe("53.8%");
  });
});
