import { describe, expect, it } from "vitest";
import { H, HOUR, MARKUP_CODE, MIN, SCRIPT_TOOL, WINDOW, emptyProjectOf, useFixtureServer } from "./read-fixture";

const { server, get } = useFixtureServer();

// First and last seen come from the all-time catalogue: the attempt at H + 5 h (outside the window) counts there.
const UPSTREAM = {
  code: "upstream_unavailable", errorClasses: ["ToolFailure", "ToolTimedOutError"], retryableShare: 1, retryableValues: ["yes"],
  conflicting: true, attempts: 3, failures: 3, outcomes: [{ outcome: "failed", attempts: 2 }, { outcome: "timed_out", attempts: 1 }],
  tools: ["cancel_booking", "lookup"], toolCount: 2, releases: ["r1", "r2"], releaseCount: 2, firstSeen: H + 10 * MIN, lastSeen: H + 5 * HOUR,
  // The fixture has spans only, no final error told to the model.
  told: null,
};

describe("GET /api/v1/codes", () => {
  it("lists codes with classes, retryability, outcomes, tools and sightings; marks two meanings", async () => {
    const { status, body } = await get(`/api/v1/codes?${WINDOW}`);
    expect(status).toBe(200);
    expect(body.codes).toEqual([
      UPSTREAM,
      {
        code: MARKUP_CODE, errorClasses: ["ToolFailure"], retryableShare: 1, retryableValues: ["yes"], conflicting: false, attempts: 2,
        failures: 2, outcomes: [{ outcome: "failed", attempts: 2 }], tools: [SCRIPT_TOOL], toolCount: 1, releases: ["r1"], releaseCount: 1,
        firstSeen: H + 2 * HOUR + MIN, lastSeen: H + 2 * HOUR + 2 * MIN, told: null,
      },
      {
        code: "booking_not_cancellable", errorClasses: ["ToolRefusal"], retryableShare: 0, retryableValues: ["no"], conflicting: false,
        attempts: 1, failures: 1, outcomes: [{ outcome: "declined", attempts: 1 }], tools: ["cancel_booking"], toolCount: 1, releases: ["r1"], releaseCount: 1,
        firstSeen: H + 20 * MIN, lastSeen: H + 20 * MIN, told: null,
      },
      {
        code: "not_permitted", errorClasses: ["ToolNotPermittedError"], retryableShare: 0, retryableValues: ["no"], conflicting: false,
        attempts: 1, failures: 1, outcomes: [{ outcome: "refused", attempts: 1 }], tools: ["cancel_booking"], toolCount: 1, releases: ["r2"], releaseCount: 1,
        firstSeen: H + HOUR + 5 * MIN, lastSeen: H + HOUR + 5 * MIN, told: null,
      },
    ]);
  });

  it("filters by tool and by outcome", async () => {
    const byTool = await get(`/api/v1/codes?${WINDOW}&tool=lookup`);
    expect(byTool.body.codes.map((c: { code: string; attempts: number }) => [c.code, c.attempts])).toEqual([["upstream_unavailable", 1]]);
    const declined = await get(`/api/v1/codes?${WINDOW}&outcome=declined`);
    expect(declined.body.codes.map((c: { code: string }) => c.code)).toEqual(["booking_not_cancellable"]);
  });
});

describe("GET /api/v1/codes/detail", () => {
  it("answers a code's history: outcomes over time, tools and meanings per release", async () => {
    const { body } = await get(`/api/v1/codes/detail?${WINDOW}&code=upstream_unavailable`);
    expect(body.summary).toEqual(UPSTREAM);
    expect(body.outcomeSeries).toEqual([
      { t: H, outcome: "failed", attempts: 1 },
      { t: H + HOUR, outcome: "failed", attempts: 1 },
      { t: H + 2 * HOUR, outcome: "timed_out", attempts: 1 },
    ]);
    expect(body.byTool).toEqual([
      { tool: "cancel_booking", attempts: 2, failures: 2, declined: 0, refused: 0 },
      { tool: "lookup", attempts: 1, failures: 1, declined: 0, refused: 0 },
    ]);
    // The catalogue is all-time: the out-of-window attempt at H + 5 h extends the r1 meaning's last sighting.
    expect(body.meanings).toEqual([
      { release: "r1", tool: "cancel_booking", toolVersion: "", errorClass: "ToolFailure", retryable: "yes", firstSeen: H + 10 * MIN, lastSeen: H + 5 * HOUR, spans: 2, errors: 0 },
      { release: "r2", tool: "cancel_booking", toolVersion: "", errorClass: "ToolFailure", retryable: "yes", firstSeen: H + HOUR + 10 * MIN, lastSeen: H + HOUR + 10 * MIN, spans: 1, errors: 0 },
      { release: "r2", tool: "lookup", toolVersion: "", errorClass: "ToolTimedOutError", retryable: "yes", firstSeen: H + 2 * HOUR + 30 * MIN, lastSeen: H + 2 * HOUR + 30 * MIN, spans: 1, errors: 0 },
    ]);
  });
});

describe("GET /api/v1/setup and /api/v1/projects", () => {
  it("shows key prefixes only, and whether data arrived", async () => {
    const { body } = await get(`/api/v1/setup`);
    expect(body.project).toBe(server().project);
    expect(body.hasData).toBe(true);
    // openProject makes the file's project with one key, the test key.
    expect(body.keyPrefixes.map((k: { name: string }) => k.name)).toEqual(["test key"]);
    expect(body.keyPrefixes[0].prefix).toBe(server().key.split("_").slice(0, 2).join("_"));
    expect(JSON.stringify(body)).not.toContain(server().key);
    const emptyProject = emptyProjectOf(server().project);
    const empty = await get(`/api/v1/setup?project=${emptyProject}`);
    expect(empty.body).toEqual({ project: emptyProject, projectExists: true, hasData: false, keyPrefixes: [] });
  });

  it("lists projects by id", async () => {
    // The shared server holds every test file's projects: check this file's two, and the order.
    const { body } = await get(`/api/v1/projects`);
    const ids = body.projects.map((p: { id: string }) => p.id);
    expect(ids).toEqual([...ids].sort());
    const mine = [server().project, emptyProjectOf(server().project)];
    expect(body.projects.filter((p: { id: string }) => mine.includes(p.id))).toEqual([
      { id: mine[0], name: `Project of ${mine[0]}`, archivedAt: null },
      { id: mine[1], name: "Empty project", archivedAt: null },
    ]);
  });
});
