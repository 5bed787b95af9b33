import { describe, expect, it } from "vitest";
import { mixtureHalfWidth, mixtureTest, proportionVariance } from "@/lib/experiments/mixture";
import { variantStats, variantSums, type VariantCount } from "@/lib/experiments/stats";

describe("mSPRT with a normal mixture", () => {
  it("gives the likelihood ratio, p-value and interval worked out by hand", () => {
    // v = 0.001, τ² = 0.01: log Λ = ½ ln(1/11) + 0.0001 / (2 · 0.001 · 0.011) = 3.346507
    const r = mixtureTest({ estimate: 0.1, variance: 0.001, alpha: 0.05, tau2: 0.01 });
    expect(Math.log(r.lambda)).toBeCloseTo(3.346507, 5);
    expect(r.pValue).toBeCloseTo(Math.exp(-3.346507), 6);
    expect(r.rejected).toBe(true);
    // half width √(0.0011 · (2 ln 20 + ln 11)) = 0.0960641
    expect(r.interval[0]).toBeCloseTo(0.1 - 0.0960641, 6);
    expect(r.interval[1]).toBeCloseTo(0.1 + 0.0960641, 6);
  });

  it("rejects exactly when the null value leaves the interval", () => {
    for (const estimate of [0.05, 0.09, 0.0961, 0.097, 0.2]) {
      const r = mixtureTest({ estimate, variance: 0.001, alpha: 0.05, tau2: 0.01 });
      expect(r.rejected).toBe(r.interval[0] > 0);
    }
    expect(mixtureTest({ estimate: 0.3, variance: 0.001, alpha: 0.05, tau2: 0.01, nullValue: 0.25 }).rejected).toBe(false);
  });

  it("claims nothing without data", () => {
    expect(mixtureTest({ estimate: 0, variance: 0, alpha: 0.05, tau2: 0.01 })).toMatchObject({ rejected: false, pValue: 1 });
    expect(mixtureHalfWidth(0, 0.05, 0.01)).toBe(Number.POSITIVE_INFINITY);
    expect(proportionVariance(0, 10)).toBeCloseTo(((0.5 / 11) * (10.5 / 11)) / 10, 12);
  });
});

describe("per-variant sums of told counts", () => {
  it("counts exposures, decided, recovered (recovered or replaced), repeats, failed runs and calls", () => {
    const counts: VariantCount[] = [
      { variant: "a", step: "recovered", runState: "completed", calls: 1, errors: 3 },
      { variant: "a", step: "replaced", runState: "completed", calls: 2, errors: 1 },
      { variant: "a", step: "repeated", runState: "failed", calls: 0, errors: 2 },
      { variant: "a", step: "unknown", runState: "completed", calls: 0, errors: 1 },
      { variant: "a", step: "pending", runState: "open", calls: 0, errors: 4 },
      { variant: "zz", step: "recovered", runState: "completed", calls: 1, errors: 9 },
    ];
    const [a, b] = variantSums(["a", "b"], counts);
    expect(a).toEqual({ id: "a", exposures: 11, decided: 7, recovered: 4, repeated: 2, repeatJudged: 6, runsFailed: 2, recoveries: 4, callsUntilRecoveryTotal: 5, callsSquaredTotal: 7 });
    expect(b).toMatchObject({ id: "b", exposures: 0, decided: 0 });
    const [sa, sb] = variantStats([a!, b!], 0.05);
    expect(sa!.selfCorrection!.value).toBeCloseTo(4 / 7, 12);
    expect(sa!.repeatRate!.value).toBeCloseTo(2 / 6, 12);
    expect(sa!.callsUntilRecovery!.value).toBe(1.25);
    expect(sa!.selfCorrection!.interval![0]).toBeGreaterThanOrEqual(0);
    expect(sb!.selfCorrection).toBeNull();
  });
});
