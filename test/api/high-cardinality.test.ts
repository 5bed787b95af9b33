import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { emptyRowBatch } from "@/lib/ingest/rows";
import { openProject, type ProjectServer } from "../helpers/project";
import { spanRow } from "../helpers/rows";

// Lists that grow with the data answer one page or a capped list: 260 codes and releases on one tool,
// 130 tools. The caps are the contract's (100 rows a page, 200 facet values, 50 named codes on the tool
// chart, 100 releases in the tool's table).

const H = Date.UTC(2026, 0, 12, 0, 0, 0);
const WINDOW = `from=${H}&to=${H + 3 * 3_600_000}`;
const CODES = 260;
const TOOLS = 130;
const pad = (n: number) => String(n).padStart(3, "0");

async function seed(store: Store, project: string): Promise<void> {
  const batch = emptyRowBatch();
  // "hub" fails once with each code, each in its own release.
  for (let i = 0; i < CODES; i++) {
    batch.spans.push({
      index: batch.spans.length,
      row: spanRow({ spanId: `hub-${i}`, runId: `run-${i}`, callId: `c-${i}`, tool: "hub", attempt: 1, startedAt: H + i * 1000, endedAt: H + i * 1000 + 5, outcome: "failed", code: `code_${pad(i)}`, errorClass: "ToolFailure", release: `r-${pad(i)}` }),
    });
  }
  // Tie-breaks aside, the 50 named codes are the ones that failed more: code_000…code_049 fail once more each.
  for (let i = 0; i < 50; i++) {
    batch.spans.push({
      index: batch.spans.length,
      row: spanRow({ spanId: `hub-extra-${i}`, runId: `run-${i}`, callId: `x-${i}`, tool: "hub", attempt: 1, startedAt: H + 3_600_000 + i, endedAt: H + 3_600_000 + i + 5, outcome: "failed", code: `code_${pad(i)}`, errorClass: "ToolFailure", release: `r-${pad(i)}` }),
    });
  }
  for (let i = 0; i < TOOLS; i++) {
    batch.spans.push({ index: batch.spans.length, row: spanRow({ spanId: `t-${i}`, runId: "run-tools", callId: `t-${i}`, tool: `tool_${pad(i)}`, attempt: 1, startedAt: H + 2 * 3_600_000 + i, endedAt: H + 2 * 3_600_000 + i + 1 }) });
  }
  await writeRows(store, project, batch);
}

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject({ seed });
});
afterAll(() => server?.stop());

async function get(path: string) {
  const res = await fetch(server.at(path));
  return { status: res.status, body: await res.json() };
}

describe("high cardinality", () => {
  it("pages the codes table and searches it by name", async () => {
    const first = await get(`/api/v1/codes?${WINDOW}&sort=code&dir=asc`);
    expect(first.status).toBe(200);
    expect(first.body.page).toEqual({ total: CODES, offset: 0, limit: 100 });
    expect(first.body.codes).toHaveLength(100);
    expect(first.body.codes[0].code).toBe("code_000");
    const last = await get(`/api/v1/codes?${WINDOW}&sort=code&dir=asc&offset=250`);
    expect(last.body.codes.map((c: { code: string }) => c.code)).toEqual(Array.from({ length: 10 }, (_, i) => `code_${pad(250 + i)}`));
    const search = await get(`/api/v1/codes?${WINDOW}&sort=code&dir=asc&q=CODE_25`);
    expect(search.body.page).toEqual({ total: 10, offset: 0, limit: 100 });
    const bad = await get(`/api/v1/codes?${WINDOW}&limit=501`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("bad_request");
  });

  it("pages the tools table; an export holds every matching row", async () => {
    const page = await get(`/api/v1/tools?${WINDOW}&sort=tool&dir=asc&limit=50&offset=100`);
    expect(page.body.page).toEqual({ total: TOOLS + 1, offset: 100, limit: 50 });
    expect(page.body.tools.map((t: { tool: string }) => t.tool)).toEqual(Array.from({ length: 31 }, (_, i) => `tool_${pad(99 + i)}`));
    const csv = await (await fetch(server.at(`/api/v1/tools?${WINDOW}&format=csv&q=tool_`))).text();
    expect(csv.trim().split("\n")).toHaveLength(TOOLS + 1);
  });

  it("caps facets at 200 values and says which were cut", async () => {
    const { body } = await get(`/api/v1/tools?${WINDOW}&limit=1`);
    expect(body.facets.codes).toHaveLength(200);
    expect(body.facets.releases).toHaveLength(200);
    expect(body.facets.codes[0]).toBe("code_000");
    expect(body.facets.truncated).toEqual(["codes", "releases"]);
    expect(body.facets.environments).toEqual(["prod"]);
  });

  it("names the tool chart's top 50 codes, sums the rest, and lists the 100 releases seen last", async () => {
    const { body } = await get(`/api/v1/tools/detail?${WINDOW}&tool=hub`);
    const named = new Set(body.codeSeries.map((p: { code: string }) => p.code));
    expect([...named].sort()).toEqual(Array.from({ length: 50 }, (_, i) => `code_${pad(i)}`));
    expect(body.codeSeriesRest).toEqual([{ t: H, failures: CODES - 50 }]);
    expect(body.releaseCount).toBe(CODES);
    expect(body.releases).toHaveLength(100);
    // Seen last: the extra failures of r-000…r-049 in the second hour, then the first hour's, by name.
    expect(body.releases[0].release).toBe("r-000");
    const code = (await get(`/api/v1/codes?${WINDOW}&sort=code&dir=asc&limit=1`)).body.codes[0];
    expect([code.tools, code.toolCount, code.releases, code.releaseCount]).toEqual([["hub"], 1, ["r-000"], 1]);
  });
});
