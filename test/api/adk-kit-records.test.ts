import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { A, type RunTimeline } from "@/lib/contracts/runs";
import { openProject, type ProjectServer } from "../helpers/project";

// The reference kit's records that the contract determines more of than they spell out: a call off
// the agent's allowlist is never retried (retryable false, not unknown), and a published call left
// running when its run was cancelled (`state: "abandoned"`) is stored as abandoned.

let server: ProjectServer;
beforeAll(async () => {
  server = await openProject();
});
afterAll(async () => {
  await server?.stop();
});

const post = (path: string, body: unknown) =>
  fetch(`${server.url}/api/v1/ingest/adk/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const at = Math.floor(Date.now() / 1000) - 60;

/** Per call of the run: tool, then each attempt's outcome, retryable and message from the read API. */
async function attemptsOf(runId: string) {
  const timeline = (await (await fetch(server.at(`/api/v1/runs/${runId}`))).json()) as RunTimeline;
  const s = (i: number | null) => (i === null ? null : timeline.strings[i]);
  return timeline.calls.map((c) => [c.tool, c.attempts.map((a) => [s(a[A.outcome]), s(a[A.errorClass]), a[A.retryable], a[A.message]])]);
}

describe("reference-kit records: what the contract determines", () => {
  it("an off-allowlist call is not retryable in run events, ToolCallSpan records and the OTLP recorder", async () => {
    const events = await post("run-events", {
      run_id: "kit-allowlist-events", agent: "planner", state: "failed", events: [
        // The loop refuses a name outside the agent's tools without a detail (§3.4 row 10)…
        { kind: "tool_refused", name: "wire_money", detail: null, at, usage: null },
        // …and an allowlist miss inside the registry with the not-permitted text (row 3).
        { kind: "tool_error", name: "refund", detail: "'refund' is not in planner's allowlist, so it was not called", at: at + 1, usage: null },
      ],
    });
    expect([events.status, await events.json()]).toEqual([200, { accepted: 2, duplicates: 0, rejected: [] }]);
    expect(await attemptsOf("kit-allowlist-events")).toEqual([
      ["wire_money", [["refused", null, false, null]]],
      ["refund", [["failed", "ToolNotPermittedError", false, "'refund' is not in planner's allowlist, so it was not called"]]],
    ]);

    const spans = await post("spans", { run_id: "kit-allowlist-spans", spans: [
      { id: "kit-sp-1", at, tool: "refund", agent: "planner", permitted: false, outcome: "refused", duration_seconds: 0, failure: "", code: "", abandoned: false },
    ] });
    expect([spans.status, await spans.json()]).toEqual([200, { accepted: 1, duplicates: 0, rejected: [] }]);
    expect(await attemptsOf("kit-allowlist-spans")).toEqual([["refund", [["refused", null, false, null]]]]);
    expect(await server.store.get("SELECT derived FROM tool_call_spans WHERE project_id = ? AND span_id = 'kit-sp-1'", [server.project])).toEqual({ derived: "retryable" });

    const recorder = await fetch(`${server.url}/v1/traces`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
      body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{
        traceId: "6b8efff798038103d269b633813fc60c", spanId: "aaa19b7ec3c1b174", name: "tool_refused", startTimeUnixNano: `${at}000000000`, endTimeUnixNano: `${at}000000000`,
        attributes: [
          { key: "adk.event", value: { stringValue: "tool_refused" } },
          { key: "adk.name", value: { stringValue: "wire_money" } },
          { key: "adk.run_id", value: { stringValue: "kit-allowlist-otlp" } },
        ],
      }] }] }] }),
    });
    expect([recorder.status, await recorder.json()]).toEqual([200, {}]);
    expect(await attemptsOf("kit-allowlist-otlp")).toEqual([["wire_money", [["refused", null, false, null]]]]);
  });

  it("a published call abandoned after its run was cancelled is stored as abandoned", async () => {
    const ev = (event_id: string, type: string, occurred_at: number, attributes: Record<string, string>) =>
      ({ event_id, type, schema_version: 1, occurred_at, tenant: "acme", run_id: "kit-abandoned", attributes: { run_id: "kit-abandoned", ...attributes } });
    const res = await post("published-events", { events: [
      ev("1KDVDNA7T7AFGR8EMX2VTC7R2", "run_started", at, { agent: "planner" }),
      ev("1KDVDNA7T7AFGR8EMX2VTC7R3", "run_cancelled", at + 5, { reason_code: "stopped" }),
      ev("1KDVDNA7T7AFGR8EMX2VTC7R4", "tool_call_completed", at + 6, { tool: "book", tool_call_id: "call-9", state: "abandoned" }),
    ] });
    expect([res.status, await res.json()]).toEqual([200, { accepted: 3, duplicates: 0, rejected: [] }]);
    expect(await server.store.get("SELECT outcome, abandoned, message FROM tool_call_spans WHERE project_id = ? AND run_id = 'kit-abandoned'", [server.project]))
      .toEqual({ outcome: null, abandoned: 1, message: "state: abandoned" });
    expect(await attemptsOf("kit-abandoned")).toEqual([["book", [[null, null, null, "state: abandoned"]]]]);
    const runs = (await (await fetch(server.at("/api/v1/runs"))).json()) as { runs: { runId: string; state: string | null }[] };
    expect(runs.runs.find((r) => r.runId === "kit-abandoned")?.state).toBe("cancelled");
  });
});
