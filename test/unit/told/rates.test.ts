import { describe, expect, it } from "vitest";
import { histogramMedian, stepCounts, toldRates, type ToldCount } from "@/lib/told/rates";

const c = (step: ToldCount["step"], errors: number, runState: ToldCount["runState"] = "completed", calls = 0): ToldCount => ({ step, runState, calls, errors });

describe("told rates", () => {
  it("self-correction counts recoveries and replacements among decided errors; pending ones only as surfaced", () => {
    const r = toldRates([c("recovered", 3, "completed", 1), c("replaced", 1, "completed", 1), c("gave_up", 2), c("repeated", 2), c("unknown", 1), c("pending", 5, "open")]);
    expect(r).toEqual({
      surfaced: 14,
      decided: 9,
      recovered: 4,
      selfCorrection: 4 / 9,
      repeated: 2,
      repeatJudged: 8,
      repeatRate: 2 / 8,
      medianCallsUntilRecovery: 1,
      finalStates: [
        { state: "completed", errors: 9 },
        { state: "failed", errors: 0 },
        { state: "cancelled", errors: 0 },
        { state: "open", errors: 0 },
      ],
    });
  });

  it("has no rate without decided errors, and no repeat rate when every retry's repeat is unknown", () => {
    expect(toldRates([c("pending", 3, "open")])).toMatchObject({ surfaced: 3, decided: 0, selfCorrection: null, repeatRate: null, medianCallsUntilRecovery: null });
    expect(toldRates([c("unknown", 2)])).toMatchObject({ decided: 2, selfCorrection: 0, repeatJudged: 0, repeatRate: null });
    expect(toldRates([])).toMatchObject({ surfaced: 0, decided: 0, selfCorrection: null });
  });

  it("takes the median of calls until recovery over recovered errors only, weighted by count", () => {
    expect(toldRates([c("recovered", 3, "completed", 1), c("recovered", 1, "completed", 4), c("gave_up", 10)]).medianCallsUntilRecovery).toBe(1);
    expect(toldRates([c("recovered", 1, "completed", 1), c("replaced", 1, "failed", 3)]).medianCallsUntilRecovery).toBe(2);
    expect(histogramMedian(new Map([[1, 2], [2, 1], [5, 2]]))).toBe(2);
    expect(histogramMedian(new Map([[3, 0]]))).toBeNull();
  });

  it("counts final states of decided errors, a recovery in a run that failed later included", () => {
    const r = toldRates([c("recovered", 2, "failed", 1), c("run_failed", 1, "cancelled"), c("recovered", 1, "open", 2)]);
    expect(r.finalStates).toEqual([
      { state: "completed", errors: 0 },
      { state: "failed", errors: 2 },
      { state: "cancelled", errors: 1 },
      { state: "open", errors: 1 },
    ]);
  });

  it("lists every step with explicit zeros, summing keys of one step", () => {
    expect(stepCounts([c("gave_up", 2), c("gave_up", 1, "failed"), c("recovered", 4, "completed", 2)])).toEqual([
      { step: "recovered", errors: 4 },
      { step: "replaced", errors: 0 },
      { step: "repeated", errors: 0 },
      { step: "changed_failed", errors: 0 },
      { step: "unknown", errors: 0 },
      { step: "gave_up", errors: 3 },
      { step: "run_failed", errors: 0 },
      { step: "pending", errors: 0 },
    ]);
  });
});
