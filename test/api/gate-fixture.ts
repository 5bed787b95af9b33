import { expect } from "vitest";

/**
 * The gate's drift scenario, ingested through the real endpoint: `upstream_timeout` on `lookup` is
 * retryable in 1.0.0 and permanent from 1.0.1 (a repurposed code in a patch), 1.1.0 adds
 * `quota_exceeded` (allowed in a minor) and 1.1.1 has too few calls to judge.
 */
export async function ingestGateScenario(url: string, key: string): Promise<void> {
  let seq = 0;
  const T = Date.UTC(2026, 10, 2, 9);
  const ingest = async (release: string, code: string, n: number, retryable: boolean) => {
    const records = Array.from({ length: n }, () => {
      const i = ++seq;
      return {
        type: "tool_call_span", id: `s${i}`, run_id: `r${i}`, call_id: `c${i}`, tool: "lookup", attempt: 1,
        started_at: T + i, ended_at: T + i + 5, outcome: "failed", code, error_class: "ToolFailure", retryable, decision: "surfaced",
      };
    });
    const res = await fetch(`${url}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ resource: { service: "agent", release }, records }),
    });
    expect(res.status).toBe(200);
  };
  await ingest("1.0.0", "upstream_timeout", 20, true);
  await ingest("1.0.1", "upstream_timeout", 20, false);
  await ingest("1.1.0", "upstream_timeout", 20, false);
  await ingest("1.1.0", "quota_exceeded", 10, true);
  await ingest("1.1.1", "upstream_timeout", 5, false);
}

export const REPURPOSED_PATCH =
  "`upstream_timeout` on `lookup` was retryable in 1.0.0 (20 calls) and is permanent in 1.0.1 (20 calls): a repurposed code in a patch release, a SemVer violation; " +
  "clients that retry `upstream_timeout` will now fail closed: treat it as permanent from 1.0.1 and surface it instead of retrying.";
export const REPURPOSED_MINOR =
  "`upstream_timeout` on `lookup` was retryable in 1.0.0 (20 calls) and is permanent in 1.1.0 (20 calls): a repurposed code in a minor release, a SemVer violation; " +
  "clients that retry `upstream_timeout` will now fail closed: treat it as permanent from 1.1.0 and surface it instead of retrying.";

/**
 * Two more tools, in releases of their own: `search` whose `upstream_unavailable` never recovers in
 * 2.0.0 and recovers on the second attempt in 2.1.0 (an improvement in a minor), and `calendar`,
 * released by date, whose `slot_taken` turns from retryable to permanent (a change SemVer cannot judge).
 */
export async function ingestImprovementAndCalVer(url: string, key: string): Promise<void> {
  let seq = 0;
  const T = Date.UTC(2026, 10, 3, 9);
  const send = async (release: string, records: Record<string, unknown>[]) => {
    const res = await fetch(`${url}/api/v1/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ resource: { service: "agent", release }, records }),
    });
    expect(res.status).toBe(200);
  };
  const calls = (tool: string, code: string, n: number, opts: { retryable: boolean; recovers: boolean }) =>
    Array.from({ length: n }, () => {
      const i = ++seq;
      const base = { type: "tool_call_span", run_id: `x${i}`, call_id: `xc${i}`, tool };
      const failed = { ...base, id: `x${i}a1`, attempt: 1, started_at: T + i * 10, ended_at: T + i * 10 + 2, outcome: "failed", code, error_class: "ToolFailure", retryable: opts.retryable, decision: "retried" };
      return opts.recovers ? [failed, { ...base, id: `x${i}a2`, attempt: 2, started_at: T + i * 10 + 4, ended_at: T + i * 10 + 6, outcome: "ok" }] : [failed];
    }).flat();
  await send("2.0.0", calls("search", "upstream_unavailable", 25, { retryable: true, recovers: false }));
  await send("2.1.0", calls("search", "upstream_unavailable", 25, { retryable: true, recovers: true }));
  await send("2026-11-02", calls("calendar", "slot_taken", 20, { retryable: true, recovers: false }));
  await send("2026-11-09", calls("calendar", "slot_taken", 20, { retryable: false, recovers: false }));
}
