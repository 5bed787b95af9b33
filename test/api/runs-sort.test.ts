import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type ProjectServer } from "../helpers/project";
import { seedRunsA } from "./runs-a-fixture";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject({ seed: seedRunsA });
});
afterAll(async () => {
  await server?.stop();
});

const get = async (path: string) => {
  const res = await fetch(server.at(path));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const page = async (query: string) => {
  const { status, body } = await get(`/api/v1/runs${query}`);
  expect(status).toBe(200);
  return { ids: (body.runs as { runId: string }[]).map((r) => r.runId), next: body.nextCursor as string | null };
};
const ids = async (query: string) => (await page(query)).ids;
/** Every page of a sort, following nextCursor. */
async function allPages(query: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const p = await page(`${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    pages.push(p.ids);
    cursor = p.next;
  } while (cursor && pages.length < 10);
  return pages;
}

describe("GET /api/v1/runs sort and dir", () => {
  it("orders by start (newest first) by default", async () => {
    expect(await ids("?")).toEqual(["run-a5", "run-a4", "run-a3", "run-a2", "run-a1"]);
    expect(await ids("?sort=start&dir=asc")).toEqual(["run-a1", "run-a2", "run-a3", "run-a4", "run-a5"]);
  });

  it("orders by retries, attempts, attempts not ok and duration, ties on the run id in the same direction", async () => {
    expect(await ids("?sort=retries&dir=desc")).toEqual(["run-a2", "run-a4", "run-a5", "run-a3", "run-a1"]);
    expect(await ids("?sort=retries&dir=asc")).toEqual(["run-a1", "run-a3", "run-a5", "run-a4", "run-a2"]);
    expect(await ids("?sort=attempts&dir=desc")).toEqual(["run-a2", "run-a4", "run-a3", "run-a5", "run-a1"]);
    expect(await ids("?sort=failedAttempts&dir=desc")).toEqual(["run-a2", "run-a4", "run-a3", "run-a5", "run-a1"]);
    expect(await ids("?sort=errors&dir=desc")).toEqual(["run-a5", "run-a4", "run-a3", "run-a2", "run-a1"]);
    // run-a5 has no run record: its duration is its attempts' span (300 ms).
    expect(await ids("?sort=duration&dir=desc")).toEqual(["run-a3", "run-a2", "run-a4", "run-a1", "run-a5"]);
    expect(await ids("?sort=duration&dir=asc")).toEqual(["run-a5", "run-a1", "run-a4", "run-a2", "run-a3"]);
  });

  it("pages with a keyset cursor per sort: no run repeated or skipped", async () => {
    expect(await allPages("?sort=retries&dir=desc", 2)).toEqual([["run-a2", "run-a4"], ["run-a5", "run-a3"], ["run-a1"]]);
    expect(await allPages("?sort=duration&dir=asc", 2)).toEqual([["run-a5", "run-a1"], ["run-a4", "run-a2"], ["run-a3"]]);
    expect(await allPages("?sort=start&dir=desc", 3)).toEqual([["run-a5", "run-a4", "run-a3"], ["run-a2", "run-a1"]]);
  });

  it("combines a sort with filters (the presets: most retried, slowest, failed runs)", async () => {
    expect(await ids("?state=failed")).toEqual(["run-a3", "run-a2"]);
    expect(await ids("?state=failed&sort=duration&dir=desc")).toEqual(["run-a3", "run-a2"]);
    expect(await ids("?hasErrors=1&sort=retries&dir=desc")).toEqual(["run-a2", "run-a4", "run-a3"]);
  });

  it("rejects an unknown sort or direction with 400", async () => {
    expect((await get("/api/v1/runs?sort=nope")).status).toBe(400);
    expect((await get("/api/v1/runs?dir=up")).status).toBe(400);
  });
});

describe("GET /api/v1/runs tool and code match by 'contains'", () => {
  it("finds rate_limited and rate_limit_soft from rate_limit, case-insensitively", async () => {
    expect(await ids("?code=rate_limit")).toEqual(["run-a4", "run-a3"]);
    expect(await ids("?code=RATE_LIMITED")).toEqual(["run-a3"]);
    expect(await ids("?tool=charge")).toEqual(["run-a4", "run-a3"]);
    expect(await ids("?tool=h_f")).toEqual(["run-a2"]);
  });

  it("treats % and _ in the text literally", async () => {
    expect(await ids("?tool=%25")).toEqual([]);
    expect(await ids("?code=rate%25")).toEqual([]);
    expect(await ids("?tool=search_")).toEqual(["run-a2"]);
    expect(await ids("?tool=searchx")).toEqual([]);
  });
});

describe("GET /api/v1/run-facets", () => {
  it("lists the agents, releases, environments, tools and codes of the project, sorted", async () => {
    const { status, body } = await get("/api/v1/run-facets");
    expect(status).toBe(200);
    expect(body).toEqual({
      agents: ["agent-a", "agent-b"],
      releases: ["r1", "r2"],
      environments: ["prod"],
      tools: ["charge_card", "lookup", "search_flights"],
      codes: ["rate_limit_soft", "rate_limited", "upstream_unavailable"],
      truncated: false,
      unansweredRuns: 0,
    });
  });
});
