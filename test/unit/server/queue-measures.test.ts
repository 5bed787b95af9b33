import { describe, expect, it } from "vitest";
import { DrainEstimate } from "@/server/http/drain-estimate";
import { StandingQueue } from "@/server/http/standing-queue";

// The two readings admission control takes of its queue (test/unit/server/admission.test.ts has the rule).
describe("standing queue", () => {
  it("stands only once every answer over a whole interval waited past the target", () => {
    const q = new StandingQueue(1000, 1000);
    // One slow transaction: a single wait past the target is no standing queue ...
    q.answered(1500, 100);
    expect(q.standing(100)).toBe(false);
    // ... nor are the waits past it behind that one, until they have lasted the interval.
    q.answered(1400, 600);
    expect(q.standing(1099)).toBe(false);
    expect(q.standing(1100)).toBe(true);
    // One answer under the target: the queue drained to it, and the count starts over.
    q.answered(999, 1200);
    expect(q.standing(2500)).toBe(false);
    q.answered(1000, 2600);
    expect(q.standing(3600)).toBe(true);
    // A queue that ran empty has drained whatever it held.
    q.emptied();
    expect(q.standing(5000)).toBe(false);
  });
});

describe("drain estimate", () => {
  it("expects no wait below its minimum queue, and an unbounded one with no rate known yet", () => {
    const d = new DrainEstimate(0, { minQueue: 8 });
    for (let i = 0; i < 7; i++) d.enter(0);
    expect(d.expectedWaitMs(5000)).toBe(0);
    d.enter(5000);
    expect(d.expectedWaitMs(5000)).toBe(Infinity);
  });

  it("divides the requests held by the answers per busy millisecond, ignoring idle time", () => {
    const d = new DrainEstimate(0, { windowMs: 200, minQueue: 8 });
    // Idle for 10 s first: the rate must not count it.
    for (let i = 0; i < 30; i++) d.enter(10_000);
    for (let i = 0; i < 20; i++) d.leave(10_000 + (i + 1) * 10);
    // 20 answered in 200 busy ms: 0.1 per ms, so the 10 still held wait 100 ms.
    expect(d.held).toBe(10);
    expect(d.ratePerMs).toBe(0.1);
    expect(d.expectedWaitMs(10_200)).toBe(100);
  });

  it("weighs a stall by its share of the recent busy time, so one paused second does not halve the rate", () => {
    const d = new DrainEstimate(0, { windowMs: 200, horizonMs: 3000, minQueue: 8 });
    for (let i = 0; i < 400; i++) d.enter(0);
    // 4 s of steady answers, one every 10 ms.
    for (let t = 10; t <= 4000; t += 10) d.leave(t);
    expect(d.ratePerMs).toBeCloseTo(0.1, 10);
    // Then the machine pauses for a second with 8 held and nothing answered, and answering resumes.
    for (let i = 0; i < 8; i++) d.enter(4000);
    d.leave(5000);
    // The 4 s of answers weigh about 1.7 s of busy time now, the stall its whole second: the rate
    // falls to about 0.062, where halving it per window (the estimate before) gave 0.05.
    expect(d.ratePerMs).toBeGreaterThan(0.06);
    expect(d.ratePerMs).toBeLessThan(0.065);
  });
});
