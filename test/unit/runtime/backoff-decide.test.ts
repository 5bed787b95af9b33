import { describe, expect, it } from "vitest";
import {
  DEFAULT_RETRY,
  ToolFailure,
  ToolErrorMap,
  ToolRefusal,
  ToolTimedOutError,
  backoffWindow,
  decide,
  fullJitterDelay,
  retryOptions,
  seededRandom,
  type DecisionInput,
} from "../../../lib/runtime";

describe("backoff (property checks over seeded random values)", () => {
  it("full jitter stays within [0, min(base*mult^(n-1), cap)] and is an integer", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = seededRandom(seed);
      const base = 1 + Math.floor(random() * 2000);
      const multiplier = 1 + random() * 3;
      const cap = base + Math.floor(random() * 60_000);
      const o = retryOptions({ baseDelayMs: base, multiplier, maxDelayMs: cap, maxAttempts: 50 });
      for (let attempt = 1; attempt <= 40; attempt++) {
        const window = Math.min(base * multiplier ** (attempt - 1), cap);
        expect(backoffWindow(o, attempt)).toBeCloseTo(window, 6);
        const d = fullJitterDelay(o, attempt, random);
        expect(Number.isInteger(d)).toBe(true);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.floor(window));
      }
    }
  });

  it("window widens by the multiplier and stops at the cap", () => {
    const o = retryOptions({ baseDelayMs: 100, multiplier: 2, maxDelayMs: 1000 });
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffWindow(o, n))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it("covers the whole window (jitter actually spreads)", () => {
    const o = retryOptions({ baseDelayMs: 1000 });
    const random = seededRandom(42);
    const draws = Array.from({ length: 2000 }, () => fullJitterDelay(o, 1, random));
    expect(Math.min(...draws)).toBeLessThan(50);
    expect(Math.max(...draws)).toBeGreaterThan(950);
  });

  it("seeded jitter is deterministic; extreme random values stay in bounds", () => {
    const o = DEFAULT_RETRY;
    const a = seededRandom(9);
    const b = seededRandom(9);
    expect(Array.from({ length: 20 }, () => fullJitterDelay(o, 3, a))).toEqual(Array.from({ length: 20 }, () => fullJitterDelay(o, 3, b)));
    expect(fullJitterDelay(o, 1, () => 0.9999999999)).toBeLessThanOrEqual(500);
    expect(fullJitterDelay(o, 1, () => 1)).toBeLessThanOrEqual(500);
    expect(fullJitterDelay(o, 1, () => Number.NaN)).toBe(0);
  });

  it("rejects zero attempts, negative delays and a multiplier below 1", () => {
    expect(() => retryOptions({ maxAttempts: 0 })).toThrow(RangeError);
    expect(() => retryOptions({ baseDelayMs: -1 })).toThrow(RangeError);
    expect(() => retryOptions({ multiplier: 0.5 })).toThrow(RangeError);
  });
});

describe("decide (the decision table, pure)", () => {
  const base = (over: Partial<DecisionInput>): DecisionInput => ({
    error: new ToolFailure("t", "upstream_unavailable", { transient: true }),
    idempotent: false,
    attempt: 1,
    toolRetriesUsed: 0,
    maxToolAttempts: 12,
    retry: retryOptions({ maxAttempts: 3, baseDelayMs: 100 }),
    now: 1_000_000,
    policy: "surface_to_model",
    random: () => 0.5,
    ...over,
  });
  const unmapped = new ToolErrorMap().classify(new Error("socket hang up"), { tool: "t" });

  it("row 1: a refusal is delivered, also under fail_run", () => {
    expect(decide(base({ error: new ToolRefusal("t", "no", "m"), policy: "fail_run" }))).toMatchObject({ decision: "delivered", stop: "refusal" });
  });
  it("row 4: a permanent failure is surfaced, or fails the run", () => {
    expect(decide(base({ error: new ToolFailure("t", "x") })).decision).toBe("surfaced");
    expect(decide(base({ error: new ToolFailure("t", "x"), policy: "fail_run" })).decision).toBe("failed_run");
  });
  it("row 5: a transient failure is retried with jittered backoff, idempotent or not", () => {
    expect(decide(base({}))).toEqual({ decision: "retried", backoffMs: 50, retryAfterMs: undefined });
  });
  it("row 5: retryAfterMs is honoured exactly (no jitter); 0 means at once", () => {
    const e = new ToolFailure("t", "rate_limited", { transient: true, retryAfterMs: 2500 });
    expect(decide(base({ error: e }))).toEqual({ decision: "retried", backoffMs: 2500, retryAfterMs: 2500 });
    const z = new ToolFailure("t", "rate_limited", { transient: true, retryAfterMs: 0 });
    expect(decide(base({ error: z }))).toMatchObject({ decision: "retried", backoffMs: 0 });
  });
  it("row 6: exhausted, over the retryAfterMs cap, past the deadline, over the tool budget", () => {
    expect(decide(base({ attempt: 3 })).decision).toBe("exhausted");
    const long = new ToolFailure("t", "quota", { transient: true, retryAfterMs: 3_600_000 });
    expect(decide(base({ error: long }))).toMatchObject({ decision: "failed_closed", stop: "retry_after_over_cap", retryAfterMs: 3_600_000 });
    const two = new ToolFailure("t", "busy", { transient: true, retryAfterMs: 2000 });
    expect(decide(base({ error: two, deadlineAt: 1_001_000 }))).toMatchObject({ decision: "failed_closed", stop: "past_deadline" });
    expect(decide(base({ toolRetriesUsed: 12 })).decision).toBe("budget_capped");
    // The run budget is checked before the per-call attempts.
    expect(decide(base({ toolRetriesUsed: 12, attempt: 3 })).decision).toBe("budget_capped");
  });
  it("row 6 (edge 26): maxAttempts 1 disables retries", () => {
    expect(decide(base({ retry: retryOptions({ maxAttempts: 1 }) })).decision).toBe("exhausted");
  });
  it("row 7: an untyped error is retried on an idempotent tool and its own retryAfter is ignored", () => {
    expect(decide(base({ error: unmapped, idempotent: true }))).toEqual({ decision: "retried", backoffMs: 50, retryAfterMs: undefined });
  });
  it("row 8: an untyped error on a non-idempotent tool is not retried", () => {
    expect(decide(base({ error: unmapped }))).toMatchObject({ decision: "surfaced", stop: "not_idempotent" });
  });
  it("row 3 / 2 / 15: permission, lookup, argument and result errors are never retried, even idempotent", () => {
    for (const cls of ["ToolNotPermittedError", "ToolNotFoundError", "ToolArgumentValidationError", "ToolResultError"] as const) {
      const e = Object.assign(new ToolFailure("t", "x", { transient: true }), {}) as ToolFailure;
      Object.defineProperty(e, "errorClass", { value: cls });
      expect(decide(base({ error: e, idempotent: true })).decision).toBe("surfaced");
    }
  });
  it("timeouts: retried when idempotent or claimed retryable", () => {
    expect(decide(base({ error: new ToolTimedOutError("t") })).decision).toBe("surfaced");
    expect(decide(base({ error: new ToolTimedOutError("t"), idempotent: true })).decision).toBe("retried");
    expect(decide(base({ error: new ToolTimedOutError("t", { retryable: true }) })).decision).toBe("retried");
  });
});
