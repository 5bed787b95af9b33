import { expect } from "vitest";

/**
 * Sends `failed` failing calls (`upstream_timeout`, surfaced) and `ok` good ones on `lookup`, started a
 * second ago, through the real ingest endpoint. `seq` numbers them so every call of a file is new.
 */
export async function ingestLookupCalls(
  server: { url: string; key: string },
  calls: { failed: number; ok: number; seq: () => number },
  resource: Record<string, string> = { service: "agent", release: "1.0.0" },
): Promise<void> {
  const now = Date.now() - 1000;
  const records = Array.from({ length: calls.failed + calls.ok }, (_, i) => {
    const n = calls.seq();
    const failing = i < calls.failed;
    return {
      type: "tool_call_span", id: `s${n}`, run_id: `r${n}`, call_id: `c${n}`, tool: "lookup", attempt: 1, started_at: now + i, ended_at: now + i + 5,
      outcome: failing ? "failed" : "ok", ...(failing ? { code: "upstream_timeout", error_class: "ToolFailure", retryable: false, decision: "surfaced" } : {}),
    };
  });
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${server.key}` },
    body: JSON.stringify({ resource, records }),
  });
  expect(res.status).toBe(200);
}
