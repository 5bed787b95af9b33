import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openProject, type ProjectServer } from "../helpers/project";

// The shared server folds 50 ms after ingest pauses (test/global-setup-server.ts).
let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const state = () =>
  server.store.get<{ span_watermark: number; findings_computed_at: number | null }>(
    "SELECT span_watermark, findings_computed_at FROM drift_state WHERE project_id = ?",
    [server.project],
  );

/** Polls `read` until `done`; the test's timeout, not a count of tries, bounds the wait. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("drift after ingest", () => {
  it("folds new spans and recomputes findings in the background, without a drift read", async () => {
    const T = Date.now() - 3_600_000;
    const records = Array.from({ length: 30 }, (_, i) => ({
      type: "tool_call_span", id: `s-${i}`, run_id: `run-${i}`, call_id: `c-${i}`, tool: "search", tool_version: i < 15 ? "1.3.0" : "1.4.0",
      attempt: 1, started_at: T + i, ended_at: T + i + 5, outcome: "failed", code: "upstream_timeout", error_class: "ToolFailure", retryable: i < 15,
    }));
    const res = await fetch(`${server.url}/api/v1/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ records }),
    });
    expect(res.status).toBe(200);
    const maxPk = (await server.store.get<{ pk: number }>("SELECT max(pk) AS pk FROM tool_call_spans WHERE project_id = ?", [server.project]))?.pk;
    const s = await until(state, (v) => v !== undefined && v.span_watermark === maxPk && v.findings_computed_at !== null);
    expect(s?.span_watermark).toBe(maxPk);
    expect(s?.findings_computed_at).not.toBeNull();
  });
});
