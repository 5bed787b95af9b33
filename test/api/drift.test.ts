import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { driftFindingsResponseSchema } from "@/lib/contracts/drift";
import { openProject, type ProjectServer } from "../helpers/project";

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const T = Date.UTC(2026, 10, 2, 9);
let seq = 0;
/** n calls of `lookup` failing with `code` once, through the real ingest endpoint. */
async function ingest(release: string, n: number, retryable: boolean) {
  const records = Array.from({ length: n }, () => {
    const i = ++seq;
    return {
      type: "tool_call_span", id: `s${i}`, run_id: `r${i}`, call_id: `c${i}`, tool: "lookup", attempt: 1,
      started_at: T + i, ended_at: T + i + 5, outcome: "failed", code: "upstream_timeout", error_class: "ToolFailure",
      retryable, decision: "surfaced",
    };
  });
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ resource: { service: "agent", release }, records }),
  });
  expect(res.status).toBe(200);
}

/** The findings once the background fold has caught up with what was ingested (reads never wait for it). */
async function findings(qs = "") {
  for (;;) {
    const answer = driftFindingsResponseSchema.parse(await (await fetch(server.at(`/api/v1/drift${qs}`))).json());
    if (answer.upToDate) return answer;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("GET /api/v1/drift", () => {
  it("picks up newly ingested data once folded in the background, release taken from the resource", async () => {
    await ingest("3.1.0", 20, true);
    expect((await findings()).findings).toEqual([]);
    await ingest("3.2.0", 15, false);
    const first = await findings();
    expect(first.findings.map((f) => [f.kind, f.fromRelease, f.toRelease, f.beforeCalls, f.afterCalls, f.verdict])).toEqual([
      ["repurposed", "3.1.0", "3.2.0", 20, 15, "violation"],
    ]);
    expect(first.findings[0]!.before!.releaseKind).toBe("release");
    await ingest("3.2.0", 5, false);
    expect((await findings()).findings.map((f) => f.afterCalls)).toEqual([20]);
    expect((await findings("?kind=removed")).findings).toEqual([]);
    expect((await findings("?kind=removed")).totals).toEqual({ all: 1, byKind: { repurposed: 1 }, bySeverity: { critical: 1 } });
  });

  it("counts final errors under their call's tool version, told: null ones included", async () => {
    // The runtime's way: spans name the tool's version, error records only the service release, and
    // under fail_run the model was told nothing.
    const calls = async (version: string, n: number, decision: string, told: string | null) => {
      const records = Array.from({ length: n }, () => {
        const i = ++seq;
        const base = { run_id: `rv${i}`, call_id: `cv${i}`, tool: "reserve" };
        return [
          { type: "tool_call_span", id: `sv${i}`, ...base, tool_version: version, attempt: 1, started_at: T + i, ended_at: T + i + 5,
            outcome: "failed", code: "seat_lock_timeout", error_class: "ToolFailure", retryable: false, decision },
          { type: "tool_error", id: `ev${i}`, ...base, code: "seat_lock_timeout", error_class: "ToolFailure", retryable: false, attempts: 1,
            decision, told, occurred_at: T + i + 6 },
        ];
      }).flat();
      const res = await fetch(`${server.url}/api/v1/ingest`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
        body: JSON.stringify({ resource: { service: "agent", release: "agent-7" }, records }),
      });
      expect([res.status, await res.json()]).toEqual([200, { accepted: 2 * n, duplicates: 0, rejected: [] }]);
    };
    await calls("2.0.0", 20, "surfaced", "error: seat_lock_timeout: seat 14C is held");
    await calls("2.1.0", 20, "failed_run", null);
    const reserve = (await findings()).findings.filter((f) => f.tool === "reserve");
    expect(reserve.map((f) => [f.kind, f.code, f.fromRelease, f.toRelease, f.changes, f.beforeCalls, f.afterCalls, f.verdict])).toEqual([
      ["repurposed", "seat_lock_timeout", "2.0.0", "2.1.0", ["decision"], 20, 20, "violation"],
    ]);
    expect(reserve[0]!.sentence).toBe(
      "`seat_lock_timeout` on `reserve` was decision surfaced in 2.0.0 (20 calls) and is decision failed_run in 2.1.0 (20 calls): a repurposed code in a minor release, a SemVer violation; clients that expect `seat_lock_timeout` to end in surfaced will now see failed_run: update what they do after it before upgrading to 2.1.0.",
    );
  });

  it("answers one page of the findings that match, and says how many matched", async () => {
    // Three tools whose `page_probe` turned from retryable to permanent between 1.0.0 and 1.1.0.
    const records = ["pa", "pb", "pc"].flatMap((tool) =>
      (["1.0.0", "1.1.0"] as const).flatMap((version) =>
        Array.from({ length: 20 }, () => {
          const i = ++seq;
          const retryable = version === "1.0.0";
          return { type: "tool_call_span", id: `sp${i}`, run_id: `rp${i}`, call_id: `cp${i}`, tool, tool_version: version, attempt: 1, started_at: T + i,
            ended_at: T + i + 5, outcome: "failed", code: "page_probe", error_class: "ToolFailure", retryable, decision: retryable ? "exhausted" : "surfaced" };
        }),
      ),
    );
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
      body: JSON.stringify({ resource: { service: "agent" }, records }),
    });
    expect(res.status).toBe(200);
    const whole = await findings("?code=page_probe");
    expect(whole.findings.map((f) => f.tool)).toEqual(["pa", "pb", "pc"]);
    expect(whole.page).toEqual({ total: 3, offset: 0, limit: 100 });
    const first = await findings("?code=page_probe&limit=2");
    expect([first.findings.map((f) => f.tool), first.page]).toEqual([["pa", "pb"], { total: 3, offset: 0, limit: 2 }]);
    const second = await findings("?code=page_probe&limit=2&offset=2");
    expect([second.findings.map((f) => f.tool), second.page]).toEqual([["pc"], { total: 3, offset: 2, limit: 2 }]);
    expect((await fetch(server.at("/api/v1/drift?limit=501"))).status).toBe(400);
  });

  it("answers 400 in the error envelope for an unknown filter value", async () => {
    const res = await fetch(server.at("/api/v1/drift?severity=apocalyptic"));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; issues: { path: string }[] } };
    expect(body.error.code).toBe("bad_request");
    expect(body.error.issues.map((i) => i.path)).toEqual(["severity"]);
  });
});
