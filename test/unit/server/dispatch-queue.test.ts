import { describe, expect, it } from "vitest";
import { DispatchQueue, MAX_DEFERRALS } from "@/server/http/dispatch-queue";

/** A scheduler the test turns by hand: each `iterate()` is one loop iteration's check phase. */
function manualLoop() {
  let next: (() => void)[] = [];
  return {
    schedule: (run: () => void) => void next.push(run),
    pending: () => next.length,
    iterate() {
      const now = next;
      next = [];
      for (const run of now) run();
    },
  };
}

describe("dispatch queue", () => {
  it("starts one parked request per loop iteration, in the order they came", () => {
    const loop = manualLoop();
    const q = new DispatchQueue(loop.schedule);
    const started: number[] = [];
    for (let i = 1; i <= 3; i++) q.push(() => started.push(i));
    expect(q.length).toBe(3);
    // One callback scheduled however many wait: the loop polls between two starts.
    expect(loop.pending()).toBe(1);
    loop.iterate();
    expect(started).toEqual([1]);
    // A request that arrives meanwhile waits behind those already parked.
    q.push(() => started.push(4));
    loop.iterate();
    loop.iterate();
    expect(started).toEqual([1, 2, 3]);
    loop.iterate();
    expect(started).toEqual([1, 2, 3, 4]);
    expect(q.length).toBe(0);
    expect(loop.pending()).toBe(0);
  });

  it("goes on with the next request when a start throws", () => {
    const loop = manualLoop();
    const q = new DispatchQueue(loop.schedule);
    const started: string[] = [];
    q.push(() => {
      throw new Error("handler blew up");
    });
    q.push(() => started.push("second"));
    expect(() => loop.iterate()).toThrow("handler blew up");
    loop.iterate();
    expect(started).toEqual(["second"]);
  });

  it("keeps its order across thousands of requests (the started ones are dropped from the front)", () => {
    const loop = manualLoop();
    const q = new DispatchQueue(loop.schedule);
    const started: number[] = [];
    for (let i = 0; i < 3000; i++) q.push(() => started.push(i));
    for (let i = 0; i < 2000; i++) loop.iterate();
    for (let i = 3000; i < 3500; i++) q.push(() => started.push(i));
    expect(q.length).toBe(1500);
    while (loop.pending() > 0) loop.iterate();
    expect(started).toEqual(Array.from({ length: 3500 }, (_, i) => i));
  });

  it("lets a request wait while the iteration before accepted a connection, a bounded number of times", () => {
    const loop = manualLoop();
    let accepting = 3;
    const q = new DispatchQueue(loop.schedule, () => accepting-- > 0);
    const started: number[] = [];
    q.push(() => started.push(1));
    q.push(() => started.push(2));
    // Three iterations accept a connection each: the first request waits them out.
    for (let i = 0; i < 3; i++) loop.iterate();
    expect(started).toEqual([]);
    loop.iterate();
    expect(started).toEqual([1]);
    // A stream of new connections delays a request MAX_DEFERRALS iterations, no more.
    accepting = Infinity;
    for (let i = 0; i < MAX_DEFERRALS; i++) loop.iterate();
    expect(started).toEqual([1]);
    loop.iterate();
    expect(started).toEqual([1, 2]);
  });
});
