import { describe, expect, it } from "vitest";
import { H, HOUR, WINDOW, useFixtureServer } from "./read-fixture";

const { get } = useFixtureServer();
const none = { count: 0, p50: null, p90: null };

// Hand-computed from read-fixture.ts, cancel_booking hour by hour.
// 00:00–01:00: c1 failed (asked 2 s, waited 30 s) then ok on attempt 2; c2 declined.
const FIRST_HOUR = {
  tool: "cancel_booking", attempts: 3, calls: 2, unnumbered: 0, callsNotOk: 1, callNotOkRate: 0.5, failures: 2, failureRate: 2 / 3, declined: 1, refused: 0,
  meanAttempts: 1.5, maxAttempts: 2, retryShare: 0.5, failedClosed: 0,
  topCodes: [{ code: "booking_not_cancellable", failures: 1 }, { code: "upstream_unavailable", failures: 1 }],
  retryAfter: { count: 1, p50: 2000, p90: 2000 }, backoff: { count: 1, p50: 30_000, p90: 30_000 },
};
// 01:00–02:00: c3 refused; c4 failed closed on a 1 h retry_after.
const SECOND_HOUR = {
  tool: "cancel_booking", attempts: 2, calls: 2, unnumbered: 0, callsNotOk: 2, callNotOkRate: 1, failures: 2, failureRate: 1, declined: 0, refused: 1,
  meanAttempts: 1, maxAttempts: 1, retryShare: 0, failedClosed: 1,
  topCodes: [{ code: "not_permitted", failures: 1 }, { code: "upstream_unavailable", failures: 1 }],
  retryAfter: { count: 1, p50: 3_600_000, p90: 3_600_000 }, backoff: none,
};
// The whole fixture window [00:00, 03:00), as read-tools.test.ts has it.
const FIRST_THREE_HOURS = {
  tool: "cancel_booking", attempts: 5, calls: 4, unnumbered: 0, callsNotOk: 3, callNotOkRate: 0.75, failures: 4, failureRate: 0.8, declined: 1, refused: 1, meanAttempts: 1.25,
  maxAttempts: 2, retryShare: 0.25, failedClosed: 1,
  topCodes: [{ code: "upstream_unavailable", failures: 2 }, { code: "booking_not_cancellable", failures: 1 }, { code: "not_permitted", failures: 1 }],
  retryAfter: { count: 2, p50: 2000, p90: 3_600_000 }, backoff: { count: 1, p50: 30_000, p90: 30_000 },
};

const detail = (query: string) => get(`/api/v1/tools/detail?tool=cancel_booking&${query}`);

describe("GET /api/v1/tools/detail?compare=previous", () => {
  it("adds the tool's figures over the previous window of equal length", async () => {
    const { status, body } = await detail(`from=${H + HOUR}&to=${H + 2 * HOUR}&compare=previous`);
    expect(status).toBe(200);
    expect(body.summary).toEqual(SECOND_HOUR);
    expect(body.previous).toEqual(FIRST_HOUR);
  });

  it("compares a three-hour window with the three hours before it", async () => {
    // [03:00, 06:00) holds one failed call (c11 at 05:00); the previous period is the fixture window.
    const { body } = await detail(`from=${H + 3 * HOUR}&to=${H + 6 * HOUR}&compare=previous`);
    expect(body.summary).toEqual({
      tool: "cancel_booking", attempts: 1, calls: 1, unnumbered: 0, callsNotOk: 1, callNotOkRate: 1, failures: 1, failureRate: 1, declined: 0, refused: 0,
      meanAttempts: 1, maxAttempts: 1, retryShare: 0, failedClosed: 0, topCodes: [{ code: "upstream_unavailable", failures: 1 }], retryAfter: none, backoff: none,
    });
    expect(body.previous).toEqual(FIRST_THREE_HOURS);
  });

  it("answers an empty previous period with zeros, and filters it like the current one", async () => {
    const empty = await detail(`${WINDOW}&compare=previous`);
    expect(empty.body.summary).toEqual(FIRST_THREE_HOURS);
    expect(empty.body.previous).toEqual({
      tool: "cancel_booking", attempts: 0, calls: 0, unnumbered: 0, callsNotOk: 0, callNotOkRate: null, failures: 0, failureRate: null, declined: 0, refused: 0,
      meanAttempts: null, maxAttempts: 0, retryShare: null, failedClosed: 0, topCodes: [], retryAfter: none, backoff: none,
    });
    const filtered = await detail(`from=${H + HOUR}&to=${H + 2 * HOUR}&compare=previous&outcome=declined`);
    expect(filtered.body.previous).toMatchObject({ attempts: 1, declined: 1, failures: 1, refused: 0 });
    expect(filtered.body.summary).toMatchObject({ attempts: 0, declined: 0 });
  });

  it("leaves it out unless asked, and refuses an unknown comparison", async () => {
    expect((await detail(WINDOW)).body.previous).toBeNull();
    const bad = await detail(`${WINDOW}&compare=last_year`);
    expect(bad.status).toBe(400);
  });
});
