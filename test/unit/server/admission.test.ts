import { describe, expect, it } from "vitest";
import { Admission } from "@/server/http/admission";
import { DrainEstimate } from "@/server/http/drain-estimate";
import type { LoopReadings } from "@/server/http/loop-turn";
import type { DoorPass, DoorRefusal } from "@/server/http/node-server";

/** A loop whose readings the test sets; it counts the ingest requests let in. */
function fakeLoop(): LoopReadings & { turn: number; lag: number; admitted: number } {
  return {
    turn: 0,
    lag: 0,
    admitted: 0,
    turnMs() {
      return this.turn;
    },
    lagMs() {
      return this.lag;
    },
    admittedThisTurn() {
      return this.admitted;
    },
    noteAdmitted() {
      this.admitted++;
    },
  };
}

const INGEST = "/api/v1/ingest";
const isRefusal = (v: DoorRefusal | DoorPass | null): v is DoorRefusal => v !== null && "status" in v;
const isPass = (v: DoorRefusal | DoorPass | null): v is DoorPass => v !== null && "onClose" in v;

/** Lets `n` ingest requests in at `now`; their onClose callbacks. */
function letIn(admission: Admission, n: number, now: number): DoorPass[] {
  return Array.from({ length: n }, () => {
    const verdict = admission.door("POST", INGEST, now);
    if (!isPass(verdict)) throw new Error(`expected a pass at ${now}, got ${JSON.stringify(verdict)}`);
    return verdict;
  });
}

describe("drain estimate", () => {
  it("expects no wait below its minimum queue, and an unbounded one with no rate known yet", () => {
    const d = new DrainEstimate(0, 200, 8);
    for (let i = 0; i < 7; i++) d.enter(0);
    expect(d.expectedWaitMs(5000)).toBe(0);
    d.enter(5000);
    expect(d.expectedWaitMs(5000)).toBe(Infinity);
  });

  it("divides the requests held by the answers per busy millisecond, ignoring idle time", () => {
    const d = new DrainEstimate(0, 200, 8);
    // Idle for 10 s first: the rate must not count it.
    for (let i = 0; i < 30; i++) d.enter(10_000);
    for (let i = 0; i < 20; i++) d.leave(10_000 + (i + 1) * 10);
    // 20 answered in 200 busy ms: 0.1 per ms, so the 10 still held wait 100 ms.
    expect(d.held).toBe(10);
    expect(d.expectedWaitMs(10_200)).toBe(100);
  });

  it("halves its rate for each window of busy time that answers nothing", () => {
    const d = new DrainEstimate(0, 200, 8);
    for (let i = 0; i < 30; i++) d.enter(0);
    for (let i = 0; i < 20; i++) d.leave((i + 1) * 10);
    expect(d.expectedWaitMs(200)).toBe(100);
    expect(d.expectedWaitMs(400)).toBe(200);
    expect(d.expectedWaitMs(600)).toBe(400);
  });
});

describe("admission at the door", () => {
  it("lets in what it does not guard and counts ingest, native and OTLP, as held", () => {
    const a = new Admission(1000, fakeLoop(), 0);
    expect(a.door("GET", INGEST, 0)).toBeNull();
    expect(a.door("POST", "/api/v1/projects", 0)).toBeNull();
    expect(a.door("POST", "/api/health", 0)).toBeNull();
    expect(isPass(a.door("POST", "/v1/traces", 0))).toBe(true);
    expect(isPass(a.door("POST", "/api/v1/ingest/adk?x=1", 0))).toBe(true);
    expect(a.queue.held).toBe(2);
  });

  it("refuses native ingest at once when those held would keep it past the budget, and opens as they drain", () => {
    // Nothing answered yet: past 8 held, nobody knows how long they take.
    const cold = new Admission(1000, fakeLoop(), 0);
    letIn(cold, 8, 0);
    expect(isRefusal(cold.door("POST", INGEST, 0))).toBe(true);
    // However late the loop runs, a lone request is no queue.
    const late = fakeLoop();
    late.lag = 5000;
    expect(isPass(new Admission(1000, late, 0).door("POST", INGEST, 0))).toBe(true);
    const a = new Admission(1000, fakeLoop(), 0);
    // One at a time for 200 ms, each answered in 10: 0.1 per ms.
    for (let t = 0; t < 200; t += 10) letIn(a, 1, t)[0]!.onClose(t + 10);
    // The door keeps half the budget for what the estimate cannot see: 50 held wait 500 ms, one more is past it.
    const held = letIn(a, 51, 200);
    const refused = a.door("POST", INGEST, 200);
    expect(isRefusal(refused) && { status: refused.status, retryAfter: refused.headers["retry-after"], body: JSON.parse(refused.body) as unknown }).toEqual({
      status: 429,
      retryAfter: "2",
      body: { error: { code: "rate_limited", message: "the server is too busy to take this request in time; retry later" } },
    });
    // OTLP is never refused here (its handler answers in its own format), only counted.
    expect(isPass(a.door("POST", "/v1/traces", 200))).toBe(true);
    held.slice(0, 10).forEach((p) => p.onClose(300));
    expect(isPass(a.door("POST", INGEST, 300))).toBe(true);
  });

  it("refuses native ingest while the loop turn in progress is over half the budget with 4 let in", () => {
    const loop = fakeLoop();
    const a = new Admission(1000, loop, 0);
    letIn(a, 4, 0);
    loop.turn = 600;
    const refused = a.door("POST", INGEST, 600);
    expect(isRefusal(refused) && refused.headers["retry-after"]).toBe("2");
    loop.turn = 0;
    loop.admitted = 0;
    expect(isPass(a.door("POST", INGEST, 650))).toBe(true);
  });
});

describe("admission in the handler", () => {
  it("serves a short queue however late, and sheds a request that queued past the budget, with the loop's lateness", () => {
    const loop = fakeLoop();
    const a = new Admission(1000, loop, 0);
    expect(a.admit(0, 4, 5000)).toBeNull();
    expect(a.admit(0, 5, 1000)).toBeNull();
    loop.lag = 100;
    expect(a.admit(100, 5, 1000)).toBeNull();
    // 1000 ms queued and 100 ms of lateness: twice that, rounded up to whole seconds.
    expect(a.admit(0, 5, 1000)).toBe(3);
  });

  it("sheds in a loop turn over half the budget with 4 let in, however short the request's own wait", () => {
    const loop = fakeLoop();
    const a = new Admission(1000, loop, 0);
    letIn(a, 4, 0);
    loop.turn = 700;
    expect(a.admit(700, 5, 700)).toBe(2);
  });

  it("closes the door for 250 ms after a handler sheds, with the handler's Retry-After", () => {
    const a = new Admission(1000, fakeLoop(), 0);
    expect(a.admit(0, 10, 4200)).toBe(9);
    const refused = a.door("POST", INGEST, 4450);
    expect(isRefusal(refused) && refused.headers["retry-after"]).toBe("9");
    expect(isPass(a.door("POST", INGEST, 4451))).toBe(true);
  });
});

describe("requests waiting for their body (issue 25)", () => {
  /**
   * A steady drain, then sixteen uploads that trickle their bodies for a whole 10 s deadline while
   * another client sends one quick request every 100 ms: how many of those the door refuses.
   */
  function slowUploadAttack(setAside: boolean): { refused: number; heldAtEnd: number } {
    const loop = fakeLoop();
    const admission = new Admission(1000, loop, 0);
    for (let i = 0; i < 40; i++) letIn(admission, 1, i * 10)[0]!.onClose(i * 10 + 5);
    const slow = letIn(admission, 16, 400);
    if (setAside) for (const p of slow) admission.bodyArriving(p.ticket!, 400);
    let refused = 0;
    for (let t = 500; t < 10_400; t += 100) {
      loop.admitted = 0;
      const verdict = admission.door("POST", INGEST, t);
      if (!isPass(verdict)) {
        refused++;
        continue;
      }
      admission.bodyArriving(verdict.ticket!, t);
      admission.bodyReceived(verdict.ticket!, t + 1);
      verdict.onClose(t + 5);
    }
    for (const p of slow) {
      admission.bodyReceived(p.ticket!, 10_400);
      p.onClose(10_400);
    }
    return { refused, heldAtEnd: admission.queue.held };
  }

  it("are set aside from the door's queue: sixteen slow uploads turn no one else away", () => {
    expect(slowUploadAttack(true)).toEqual({ refused: 0, heldAtEnd: 0 });
  });

  it("counted as queued work, the same uploads would close the door on the others", () => {
    const { refused, heldAtEnd } = slowUploadAttack(false);
    expect(refused).toBeGreaterThan(50);
    expect(heldAtEnd).toBe(0);
  });
});
