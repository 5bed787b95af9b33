import { describe, expect, it } from "vitest";
import { Admission, type DoorRequest } from "@/server/http/admission";
import type { LoopReadings } from "@/server/http/loop-turn";
import type { DoorPass, DoorRefusal } from "@/server/http/node-server";
import { decodeStatus } from "@/lib/ingest/otlp/response";

/** A loop whose lateness the test sets. */
function fakeLoop(): LoopReadings & { lag: number } {
  return {
    lag: 0,
    lagMs() {
      return this.lag;
    },
  };
}

const OPTIONS = { budgetMs: 1000, maxPerCredential: 16 };
const INGEST: DoorRequest = { method: "POST", url: "/api/v1/ingest", credential: "Bearer k1" };
const isRefusal = (v: DoorRefusal | DoorPass | null): v is DoorRefusal => v !== null && "status" in v;
const isPass = (v: DoorRefusal | DoorPass | null): v is DoorPass => v !== null && "onClose" in v;
const answer = (v: DoorRefusal | DoorPass | null) =>
  isRefusal(v) ? { status: v.status, retryAfter: v.headers["retry-after"], body: JSON.parse(String(v.body)) as unknown } : v;

/** Lets `n` ingest requests in at `now` (each with its own key unless told) and starts them (unless told); their passes. */
function letIn(admission: Admission, n: number, now: number, credential?: string, start = true): DoorPass[] {
  return Array.from({ length: n }, (_, i) => {
    const verdict = admission.door({ ...INGEST, credential: credential ?? `Bearer key-${now}-${i}` }, now);
    if (!isPass(verdict)) throw new Error(`expected a pass at ${now}, got ${JSON.stringify(verdict)}`);
    if (start) verdict.onStart?.();
    return verdict;
  });
}

/** One request at a time every `every` ms from `from` to `until`, each answered in `takes` ms. */
function steady(admission: Admission, from: number, until: number, every = 10, takes = 5): void {
  for (let t = from; t < until; t += every) letIn(admission, 1, t)[0]!.onClose(t + takes);
}

/**
 * A queue of 100 that stands: 0.1 answers per ms (`steady` up to 200), then 100 let in at 200, and one answered and one let in every 10 ms up to 2200, so from 1200 on every answer
 * waited the whole budget. `credential` names each request's key (a key of its own each by default).
 */
function standingQueue(admission: Admission, credential = (i: number) => `Bearer key-${i}`): void {
  steady(admission, 0, 200, 10, 10);
  const queue: DoorPass[] = [];
  let n = 0;
  // Each waits its turn unstarted (as in the dispatch queue), and is started when answered.
  const add = (t: number) => queue.push(...letIn(admission, 1, t, credential(n++), false));
  for (let i = 0; i < 100; i++) add(200);
  for (let t = 210; t <= 2200; t += 10) {
    const next = queue.shift()!;
    next.onStart?.();
    next.onClose(t);
    add(t);
  }
}

describe("admission at the door", () => {
  it("lets in what it does not guard and counts ingest, native and OTLP, as held", () => {
    const a = new Admission(OPTIONS, fakeLoop(), 0);
    expect(a.door({ ...INGEST, method: "GET" }, 0)).toBeNull();
    expect(a.door({ ...INGEST, url: "/api/v1/projects" }, 0)).toBeNull();
    expect(a.door({ ...INGEST, url: "/api/health" }, 0)).toBeNull();
    const otlp = a.door({ ...INGEST, url: "/v1/traces" }, 0);
    const adk = a.door({ ...INGEST, url: "/api/v1/ingest/adk?x=1" }, 0);
    expect(a.queue.held).toBe(2);
    // A key's count is of the requests started: those waiting their turn are bounded by the budget.
    expect(a.heldFor("Bearer k1")).toBe(0);
    if (isPass(otlp)) otlp.onStart?.();
    if (isPass(adk)) adk.onStart?.();
    expect(a.heldFor("Bearer k1")).toBe(2);
  });

  it("lets a queue that has not stood grow to one and a half times the budget, and refuses the request past it", () => {
    // Nothing answered yet: past 8 held, nobody knows how long they take.
    const cold = new Admission(OPTIONS, fakeLoop(), 0);
    letIn(cold, 8, 0);
    expect(answer(cold.door(INGEST, 0))).toEqual({
      status: 429,
      retryAfter: "2",
      body: { error: { code: "rate_limited", message: "the server is too busy to take this request in time; retry later" } },
    });
    // However late the loop runs, a lone request is no queue.
    const late = fakeLoop();
    late.lag = 5000;
    expect(isPass(new Admission(OPTIONS, late, 0).door(INGEST, 0))).toBe(true);
    const a = new Admission(OPTIONS, fakeLoop(), 0);
    // 20 answered in 200 busy ms: 0.1 per ms, each after 10 ms. A burst of 151 then waits 1510 ms: a
    // queue past the budget, but none of its requests has waited yet, so it is let in up to 1.5 times it.
    steady(a, 0, 200, 10, 10);
    const held = letIn(a, 151, 200);
    expect(a.queue.expectedWaitMs(200)).toBe(1510);
    expect(answer(a.door(INGEST, 200))).toMatchObject({ status: 429, retryAfter: "4" });
    held.slice(0, 10).forEach((p) => p.onClose(300));
    expect(isPass(a.door(INGEST, 300))).toBe(true);
  });

  it("refuses past the budget once the queue stands, and opens as it drains", () => {
    const a = new Admission(OPTIONS, fakeLoop(), 0);
    standingQueue(a);
    expect(a.standing.standing(2200)).toBe(true);
    expect(a.queue.expectedWaitMs(2200)).toBe(1000);
    const last = letIn(a, 1, 2200);
    expect(answer(a.door(INGEST, 2200))).toMatchObject({ status: 429, retryAfter: "3" });
    last[0]!.onClose(2200);
    expect(isPass(a.door(INGEST, 2200))).toBe(true);
  });

  it("refuses a credential's request past its limit at the door, and only that credential's", () => {
    const a = new Admission({ budgetMs: 1000, maxPerCredential: 3 }, fakeLoop(), 0);
    // Waiting their turn, a key's requests do not count against its limit; started, they do.
    const queued = letIn(a, 5, 0, "Bearer k1", false);
    expect(a.heldFor("Bearer k1")).toBe(0);
    queued.forEach((p) => p.onClose(0));
    const mine = letIn(a, 3, 0, "Bearer k1");
    expect(answer(a.door(INGEST, 0))).toEqual({
      status: 429,
      retryAfter: "1",
      body: { error: { code: "rate_limited", message: "too many concurrent ingest requests with this key (3); retry later" } },
    });
    expect(isPass(a.door({ ...INGEST, credential: "Bearer k2" }, 0))).toBe(true);
    expect(isPass(a.door({ ...INGEST, credential: undefined }, 0))).toBe(true);
    mine[0]!.onClose(5);
    expect(a.heldFor("Bearer k1")).toBe(2);
    expect(isPass(a.door(INGEST, 5))).toBe(true);
  });

  it("past the budget, refuses the key whose flood fills the queue and still lets in the others, up to twice the budget", () => {
    const a = new Admission(OPTIONS, fakeLoop(), 0);
    // One key's standing queue: 0.1 answers per ms, its 101 requests wait 1010 ms, past the budget.
    standingQueue(a, () => "Bearer flood");
    letIn(a, 1, 2000, "Bearer flood", false);
    expect(a.presentFor("Bearer flood")).toBe(101);
    expect(answer(a.door({ ...INGEST, credential: "Bearer flood" }, 2200))).toMatchObject({ status: 429, retryAfter: "3" });
    // Another key is let in while it holds fewer than its limit (16) ...
    const quiet = letIn(a, 16, 2000, "Bearer quiet", false);
    expect(answer(a.door({ ...INGEST, credential: "Bearer quiet" }, 2200))).toMatchObject({ status: 429 });
    quiet.forEach((p) => p.onClose(2200));
    expect(a.presentFor("Bearer quiet")).toBe(0);
    // ... and so is each of 99 keys more, until the wait passes twice the budget (201 held: 2010 ms).
    letIn(a, 99, 2200);
    expect(a.queue.expectedWaitMs(2200)).toBe(2000);
    expect(isPass(a.door({ ...INGEST, credential: "Bearer last" }, 2200))).toBe(true);
    expect(a.queue.expectedWaitMs(2200)).toBe(2010);
    expect(answer(a.door({ ...INGEST, credential: "Bearer late" }, 2200))).toMatchObject({ status: 429 });
    // Without a key, there is no one to tell apart from the flood.
    expect(answer(a.door({ ...INGEST, credential: undefined }, 2200))).toMatchObject({ status: 429 });
  });

  it("past the budget with no key holding half the queue, refuses a new key as any other", () => {
    const a = new Admission(OPTIONS, fakeLoop(), 0);
    // A standing queue of 100 keys; then key a holds 40 of 140 (past the budget: 1400 ms).
    standingQueue(a);
    letIn(a, 40, 2000, "Bearer a", false);
    expect(answer(a.door({ ...INGEST, credential: "Bearer new" }, 2200))).toMatchObject({ status: 429, retryAfter: "3" });
  });

  it("answers OTLP's refusals in its own format, a google.rpc.Status in the request's encoding", () => {
    const a = new Admission({ budgetMs: 1000, maxPerCredential: 1 }, fakeLoop(), 0);
    letIn(a, 1, 0, "Bearer k1");
    const json = a.door({ ...INGEST, url: "/v1/traces", contentType: "application/json" }, 0);
    expect(isRefusal(json) && { status: json.status, headers: json.headers, body: JSON.parse(String(json.body)) as unknown }).toMatchObject({
      status: 429,
      headers: { "content-type": "application/json", "retry-after": "1" },
      body: { code: 8, message: "too many concurrent ingest requests with this key (1); retry later", details: [] },
    });
    const proto = a.door({ ...INGEST, url: "/v1/traces", contentType: "application/x-protobuf" }, 0);
    expect(isRefusal(proto) && proto.headers["content-type"]).toBe("application/x-protobuf");
    expect(isRefusal(proto) && decodeStatus(proto.body as Uint8Array)).toMatchObject({ code: 8, message: "too many concurrent ingest requests with this key (1); retry later" });
  });

  it("keeps no door closed after a refusal: the next request is judged on the queue it would join", () => {
    const a = new Admission(OPTIONS, fakeLoop(), 0);
    // The handler sheds a request that waited 4.2 s with 10 in the process (a paused machine).
    expect(a.admit(0, 10, 4200)).toBe(9);
    expect(isPass(a.door(INGEST, 4201))).toBe(true);
  });
});

describe("admission in the handler", () => {
  it("serves a short queue however late, and sheds a request that queued past twice the budget, with the loop's lateness", () => {
    const loop = fakeLoop();
    const a = new Admission(OPTIONS, loop, 0);
    expect(a.admit(null, 50, 5000)).toBeNull();
    expect(a.admit(0, 4, 5000)).toBeNull();
    // Past the budget but within twice it: the process slowed after letting it in; it is served.
    expect(a.admit(0, 5, 2000)).toBeNull();
    loop.lag = 100;
    expect(a.admit(100, 5, 2000)).toBeNull();
    // 2000 ms queued and 100 ms of lateness: twice that, rounded up to whole seconds.
    expect(a.admit(0, 5, 2000)).toBe(5);
  });
});

describe("goodput under a flood", () => {
  /**
   * A process that serves one ingest request in 25 ms (40 per second), offered `perSecond` evenly
   * spaced for 10 s; the door judges each as it arrives. Returns the requests served per second and
   * the share refused.
   */
  function flood(perSecond: number): { served: number; refused: number } {
    const loop = fakeLoop();
    const a = new Admission(OPTIONS, loop, 0);
    const passes: { pass: DoorPass; doneAt: number }[] = [];
    let busyUntil = 0;
    let served = 0;
    let refused = 0;
    const seconds = 10;
    for (let i = 0; i < perSecond * seconds; i++) {
      const now = (i * 1000) / perSecond;
      // Answers finished by now leave first.
      while (passes.length > 0 && passes[0]!.doneAt <= now) {
        const { pass, doneAt } = passes.shift()!;
        pass.onClose(doneAt);
        served++;
      }
      const verdict = a.door({ ...INGEST, credential: undefined }, now);
      if (!isPass(verdict)) {
        refused++;
        continue;
      }
      // Started at once (no dispatch queue here): its wait is the time until it is answered.
      verdict.onStart?.();
      busyUntil = Math.max(busyUntil, now) + 25;
      passes.push({ pass: verdict, doneAt: busyUntil });
    }
    return { served: served / seconds, refused: refused / (perSecond * seconds) };
  }

  it("refuses nothing at the rate the process sustains", () => {
    expect(flood(38).refused).toBe(0);
  });

  it("keeps serving near that rate at ten times it", () => {
    const { served, refused } = flood(400);
    expect(served).toBeGreaterThan(0.9 * 40);
    expect(refused).toBeGreaterThan(0.85);
  });
});

describe("requests waiting for their body (issue 25)", () => {
  /**
   * A steady drain, then sixteen uploads that trickle their bodies for a whole 10 s deadline while
   * another client sends one quick request every 100 ms: how many of those the door refuses.
   */
  function slowUploadAttack(setAside: boolean): { refused: number; heldAtEnd: number; longestExpectedWaitMs: number; attackerRefusedWith: unknown } {
    const loop = fakeLoop();
    const admission = new Admission(OPTIONS, loop, 0);
    steady(admission, 0, 400);
    const slow = letIn(admission, 16, 400, "Bearer attacker");
    if (setAside) for (const p of slow) admission.bodyArriving(p.ticket!, 400);
    let refused = 0;
    let longestExpectedWaitMs = 0;
    for (let t = 500; t < 10_400; t += 100) {
      longestExpectedWaitMs = Math.max(longestExpectedWaitMs, admission.queue.expectedWaitMs(t));
      // Keyless, so the rule that lets other keys past a flood cannot tell it apart: the queue alone decides.
      const verdict = admission.door({ ...INGEST, credential: undefined }, t);
      if (!isPass(verdict)) {
        refused++;
        continue;
      }
      verdict.onStart?.();
      admission.bodyArriving(verdict.ticket!, t);
      admission.bodyReceived(verdict.ticket!, t + 1);
      verdict.onClose(t + 5);
    }
    const own = answer(admission.door({ ...INGEST, credential: "Bearer attacker" }, 10_400));
    for (const p of slow) {
      admission.bodyReceived(p.ticket!, 10_400);
      p.onClose(10_400);
    }
    return { refused, heldAtEnd: admission.queue.held, longestExpectedWaitMs: Math.round(longestExpectedWaitMs), attackerRefusedWith: own };
  }

  it("are set aside from the door's queue: sixteen slow uploads turn no one else away", () => {
    expect(slowUploadAttack(true)).toEqual({
      refused: 0,
      heldAtEnd: 0,
      longestExpectedWaitMs: 0,
      // The attacker's own key is at its limit meanwhile.
      attackerRefusedWith: {
        status: 429,
        retryAfter: "1",
        body: { error: { code: "rate_limited", message: "too many concurrent ingest requests with this key (16); retry later" } },
      },
    });
  });

  it("counted as queued work, the same uploads would close the door on the others", () => {
    // The estimate passes 1.5 times the budget as the uploads hold on; the other client's own short
    // waits (no standing queue) keep it from closing sooner.
    const { refused, heldAtEnd, longestExpectedWaitMs } = slowUploadAttack(false);
    expect(longestExpectedWaitMs).toBeGreaterThan(1.5 * OPTIONS.budgetMs);
    expect(refused).toBe(10);
    expect(heldAtEnd).toBe(0);
  });
});

describe("a sustainable load on a machine that slows down for a while", () => {
  /**
   * One server starting requests in the order they came (as the dispatch queue does), 25 ms each
   * (40 a second), `slowMs` each while the machine is slow (requests started from `slowFrom` to
   * `slowUntil`, ms); requests arrive evenly at `perSecond` for 10 s. The door judges each arrival
   * and the handler each start. Returns the requests each refused and the longest wait of one served.
   */
  function slowdown(perSecond: number, slow: { from: number; until: number; ms: number }): { door: number; handler: number; longestWaitMs: number } {
    const a = new Admission(OPTIONS, fakeLoop(), 0);
    const waiting: { pass: DoorPass; arrivedAt: number }[] = [];
    let current: { pass: DoorPass; endAt: number } | null = null;
    const refused = { door: 0, handler: 0 };
    let longestWaitMs = 0;
    const startNext = (t: number) => {
      while (!current && waiting.length > 0) {
        const { pass, arrivedAt } = waiting.shift()!;
        if (a.admit(arrivedAt, waiting.length + 1, t) !== null) {
          refused.handler++;
          pass.onClose(t);
          continue;
        }
        longestWaitMs = Math.max(longestWaitMs, t - arrivedAt);
        pass.onStart?.();
        current = { pass, endAt: t + (t >= slow.from && t < slow.until ? slow.ms : 25) };
      }
    };
    const finishUntil = (now: number) => {
      while (current && current.endAt <= now) {
        const done: { pass: DoorPass; endAt: number } = current;
        current = null;
        done.pass.onClose(done.endAt);
        startNext(done.endAt);
      }
    };
    for (let i = 0; i < perSecond * 10; i++) {
      const now = (i * 1000) / perSecond;
      finishUntil(now);
      const verdict = a.door({ ...INGEST, credential: undefined }, now);
      if (!isPass(verdict)) {
        refused.door++;
        continue;
      }
      waiting.push({ pass: verdict, arrivedAt: now });
      startNext(now);
    }
    finishUntil(Infinity);
    return { ...refused, longestWaitMs: Math.round(longestWaitMs) };
  }

  it("serves the short queue a second at half speed leaves, refusing nothing", () => {
    expect(slowdown(36, { from: 3000, until: 4000, ms: 50 })).toEqual({ door: 0, handler: 0, longestWaitMs: 444 });
  });

  it("after a pause, serves what it let in though it waited past the budget, and refuses only while the queue stands", () => {
    // A 1.2 s pause at 90 % of the rate served: 43 arrive meanwhile and are let in (the queue has not
    // stood yet). Their waits pass the budget for a second as the queue drains, so the door then
    // refuses the arrivals that would wait past it, until an answer comes under it (20 refused
    // when a queue past the budget was refused at once).
    expect(slowdown(36, { from: 3000, until: 3001, ms: 1200 })).toEqual({ door: 9, handler: 0, longestWaitMs: 1172 });
  });

  it("refuses an overload that lasts once its queue stands, with waits kept near the budget", () => {
    // 48 a second for 10 s where 40 are served: a queue that would grow to 2 s. The waits pass the
    // budget after 6 s, stand a second later, and from then on arrivals that would wait past it are refused.
    expect(slowdown(48, { from: 0, until: 0, ms: 25 })).toEqual({ door: 28, handler: 0, longestWaitMs: 1371 });
  });
});
