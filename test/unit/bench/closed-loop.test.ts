import { describe, expect, it } from "vitest";
import { closedLoopOf } from "../../../bench/ingest-common";

describe("closedLoopOf", () => {
  it("counts every record the writers stored in the measured seconds, however their steps interleave", async () => {
    let finished = 0;
    let finishedAtStart = -1;
    let calls = 0;
    // Steps of uneven length, so the writers finish in every order: one finishing twice while the
    // other's step is still running is what `counted += await step()` lost a whole step's count on.
    const step = async () => {
      const wait = [1, 4, 2, 7, 3][calls++ % 5]!;
      await new Promise((resolve) => setTimeout(resolve, wait));
      finished += 3;
      return 3;
    };
    const r = await closedLoopOf(2, step, async () => void (finishedAtStart = finished), { warmupSeconds: 0.05, seconds: 0.3 });
    expect(finishedAtStart).toBeGreaterThan(0);
    expect(r.records).toBe(finished - finishedAtStart);
    expect(r.records).toBeGreaterThan(0);
    expect(r.latencies).toHaveLength(r.records / 3);
  });
});
