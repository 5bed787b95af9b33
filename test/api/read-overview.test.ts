import { describe, expect, it } from "vitest";
import { H, HOUR, WINDOW, emptyProjectOf, useFixtureServer } from "./read-fixture";

const { server, get } = useFixtureServer();

describe("GET /api/v1/overview", () => {
  it("answers the window's totals, outcome series and top lists from the rollups", async () => {
    const { status, body } = await get(`/api/v1/overview?${WINDOW}`);
    expect(status).toBe(200);
    expect(body.window).toEqual({ from: H, to: H + 3 * HOUR, stepMs: HOUR });
    expect(body.hasData).toBe(true);
    // 13 attempts in the window, 10 of them first attempts; 7 not ok (4 cancel_booking, 2 markup tool, 1 lookup).
    expect(body.totals).toEqual({
      attempts: 13, calls: 10, unnumbered: 0, failures: 7, failureRate: 7 / 13, declined: 1, refused: 1,
      retries: 3, retriedCalls: 2, failedClosed: 1, backoffWaitedMs: 36_000,
    });
    expect(body.series).toEqual([
      { t: H, outcome: "declined", attempts: 1 },
      { t: H, outcome: "failed", attempts: 1 },
      { t: H, outcome: "ok", attempts: 2 },
      { t: H + HOUR, outcome: "failed", attempts: 1 },
      { t: H + HOUR, outcome: "ok", attempts: 1 },
      { t: H + HOUR, outcome: "refused", attempts: 1 },
      { t: H + 2 * HOUR, outcome: "failed", attempts: 2 },
      { t: H + 2 * HOUR, outcome: "ok", attempts: 3 },
      { t: H + 2 * HOUR, outcome: "timed_out", attempts: 1 },
    ]);
    expect(body.topCodes).toEqual([
      { code: "upstream_unavailable", failures: 3, declined: 0, refused: 0, tools: 2 },
      { code: "<b>bold</b>", failures: 2, declined: 0, refused: 0, tools: 1 },
      { code: "booking_not_cancellable", failures: 1, declined: 1, refused: 0, tools: 1 },
      { code: "not_permitted", failures: 1, declined: 0, refused: 1, tools: 1 },
    ]);
    expect(body.topTools).toEqual([
      { tool: "cancel_booking", attempts: 5, failures: 4, failureRate: 0.8, declined: 1, refused: 1 },
      { tool: "<script>alert(1)</script>", attempts: 4, failures: 2, failureRate: 0.5, declined: 0, refused: 0 },
      { tool: "lookup", attempts: 3, failures: 1, failureRate: 1 / 3, declined: 0, refused: 0 },
    ]);
  });

  it("narrows by service and by outcome", async () => {
    const svc = await get(`/api/v1/overview?${WINDOW}&service=svc-b`);
    // svc-b: c3 refused, c4 failed closed, lookup c7, c8 ok and c9 timed out.
    expect(svc.body.totals).toMatchObject({ attempts: 5, calls: 5, failures: 3, declined: 0, refused: 1, failedClosed: 1 });
    const refused = await get(`/api/v1/overview?${WINDOW}&outcome=refused`);
    expect(refused.body.totals).toMatchObject({ attempts: 1, failures: 1, declined: 0, refused: 1 });
    expect(refused.body.topTools).toEqual([{ tool: "cancel_booking", attempts: 1, failures: 1, failureRate: 1, declined: 0, refused: 1 }]);
  });

  it("says an empty project has no data, with zero totals", async () => {
    const { body } = await get(`/api/v1/overview?project=${emptyProjectOf(server().project)}&${WINDOW}`);
    expect(body.hasData).toBe(false);
    expect(body.totals).toEqual({
      attempts: 0, calls: 0, unnumbered: 0, failures: 0, failureRate: null, declined: 0, refused: 0, retries: 0, retriedCalls: 0, failedClosed: 0, backoffWaitedMs: 0,
    });
    expect(body.series).toEqual([]);
  });

  it("resolves a relative range to whole hours ending after now", async () => {
    const before = Date.now();
    const { body } = await get(`/api/v1/overview?range=24h`);
    const end = Math.floor(before / HOUR) * HOUR + HOUR;
    expect([end, end + HOUR]).toContain(body.window.to);
    expect(body.window.stepMs).toBe(HOUR);
    expect(body.window.to - body.window.from).toBe(24 * HOUR);
  });

  it("rejects a bad query with the error envelope", async () => {
    const { status, body } = await get(`/api/v1/overview?range=5y`);
    expect(status).toBe(400);
    expect(body.error.code).toBe("bad_request");
    expect(body.error.issues[0].path).toBe("range");
  });
});
