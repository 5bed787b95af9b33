import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { createProject } from "@/db/keys";
import { searchText } from "@/db/queries/text-search";
import { listRuns } from "@/db/queries/list-runs";
import { pruneExpiredRuns } from "@/db/retention/prune-expired";
import { listRunsQuerySchema } from "@/lib/contracts/runs";
import { textSearchQuerySchema } from "@/lib/contracts/text-search";
import { emptyRowBatch, type ToolErrorRow } from "@/lib/ingest/rows";
import { spanRow } from "../../helpers/rows";
import { DIALECTS, openTestStore } from "../../helpers/stores";

const T = Date.UTC(2026, 0, 10);
const DAY = 86_400_000;

function told(fields: Pick<ToolErrorRow, "eventId" | "runId" | "callId" | "tool" | "told" | "occurredAt">): ToolErrorRow {
  return { toolVersion: null, release: null, service: null, environment: "prod", code: "upstream_unavailable", errorClass: null, retryable: true, attempts: 2, decision: "surface", derived: null, source: "native", experiment: null, variant: null, ...fields };
}

/** The hits of a query as `field run/call: text with [marked] matches`. */
async function find(store: Store, q: string, extra: Record<string, string> = {}): Promise<string[]> {
  const answer = await searchText(store, textSearchQuerySchema.parse({ project: "p", q, ...extra }));
  return answer.hits.map((h) => `${h.field} ${h.runId}/${h.callId}: ${h.snippet.segments.map((s) => (s.hit ? `[${s.text}]` : s.text)).join("")}`);
}

describe.each(DIALECTS)("full-text search (%s)", (dialect) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    await createProject(store, "p", "p");
    await createProject(store, "other", "other");
    const batch = emptyRowBatch();
    const spans = [
      spanRow({ spanId: "a1", runId: "run-a", callId: "c1", tool: "lookup", attempt: 1, startedAt: T, endedAt: T + 5, outcome: "failed", code: "upstream_unavailable", message: "HTTP 503 from api.example.com: upstream unavailable" }),
      spanRow({ spanId: "a2", runId: "run-a", callId: "c1", tool: "lookup", attempt: 2, startedAt: T + 10, endedAt: T + 15, outcome: "failed", code: "upstream_unavailable", message: "HTTP 503 from api.example.com: upstream unavailable again" }),
      spanRow({ spanId: "b1", runId: "run-b", callId: "c2", tool: "book", attempt: 1, startedAt: T + 20, endedAt: T + 25, outcome: "failed", code: "rate_limited", message: "Rate limited (429): retry in 2 seconds" }),
      spanRow({ spanId: "c1", runId: "run-c", callId: "c3", tool: "book", attempt: 1, startedAt: T + 30, endedAt: T + 35, outcome: "failed", code: "timeout", message: "Timed out after 30 s; limited retries left" }),
      spanRow({ spanId: "d1", runId: "run-d", callId: "c4", tool: "book", attempt: 1, startedAt: T + 40, endedAt: T + 45, outcome: "ok" }),
      spanRow({ spanId: "old", runId: "run-old", callId: "c9", tool: "book", attempt: 1, startedAt: T - 40 * DAY, endedAt: T - 40 * DAY + 5, outcome: "failed", message: "ancient upstream failure" }),
    ];
    spans.forEach((row, index) => batch.spans.push({ index, row }));
    batch.toolErrors.push({ index: 0, row: told({ eventId: "e1", runId: "run-a", callId: "c1", tool: "lookup", told: "The booking service is unavailable; try again later.", occurredAt: T + 16 }) });
    batch.toolErrors.push({ index: 1, row: told({ eventId: "e2", runId: "run-b", callId: "c2", tool: "book", told: 'Too many requests: say "rate limited" to the user (code 429).', occurredAt: T + 26 }) });
    await writeRows(store, "p", batch, T + 50);
    const other = emptyRowBatch();
    other.spans.push({ index: 0, row: spanRow({ spanId: "o1", runId: "run-o", callId: "o1", tool: "lookup", attempt: 1, startedAt: T, endedAt: T + 5, outcome: "failed", message: "upstream unavailable elsewhere" }) });
    await writeRows(store, "other", other, T + 50);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("finds words anywhere, in both fields, one hit per call (its latest attempt), newest first, within the project", async () => {
    expect(await find(store, "unavailable")).toEqual([
      "told run-a/c1: The booking service is [unavailable]; try again later.",
      "message run-a/c1: HTTP 503 from api.example.com: upstream [unavailable] again",
    ]);
    const answer = await searchText(store, textSearchQuerySchema.parse({ project: "p", q: "upstream" }));
    expect(answer.hits.map((h) => [h.runId, h.spanId, h.matches])).toEqual([
      ["run-a", "a2", 2],
      ["run-old", "old", 1],
    ]);
    expect(answer.runs).toBe(2);
    expect(answer.truncated).toBe(false);
  });

  it("requires every word; a phrase needs its words in order; a chunk with punctuation is a phrase", async () => {
    expect(await find(store, "upstream again")).toEqual(["message run-a/c1: HTTP 503 from api.example.com: [upstream] unavailable [again]"]);
    expect(await find(store, '"rate limited"')).toEqual([
      'told run-b/c2: Too many requests: say "[rate limited]" to the user (code 429).',
      "message run-b/c2: [Rate limited] (429): retry in 2 seconds",
    ]);
    // "limited" alone is also in run-c's message, but not after "rate".
    expect(await find(store, "limited", { field: "message" })).toEqual([
      "message run-c/c3: Timed out after 30 s; [limited] retries left",
      "message run-b/c2: Rate [limited] (429): retry in 2 seconds",
    ]);
    expect(await find(store, "example.com")).toEqual(["message run-a/c1: HTTP 503 from api.[example.com]: upstream unavailable again"]);
  });

  it("matches prefixes, numbers and any case", async () => {
    expect(await find(store, "retr*", { field: "message" })).toEqual([
      "message run-c/c3: Timed out after 30 s; limited [retries] left",
      "message run-b/c2: Rate limited (429): [retry] in 2 seconds",
    ]);
    expect(await find(store, "429")).toEqual([
      'told run-b/c2: Too many requests: say "rate limited" to the user (code [429]).',
      "message run-b/c2: Rate limited ([429]): retry in 2 seconds",
    ]);
    expect(await find(store, "HTTP")).toEqual(["message run-a/c1: [HTTP] 503 from api.example.com: upstream unavailable again"]);
  });

  it("reads quotes, parentheses, stars and query keywords as text, never as the engine's syntax", async () => {
    expect(await find(store, '(429) "limited')).toEqual(await find(store, "429 limited"));
    expect(await find(store, "AND OR NOT NEAR")).toEqual([]);
    expect(await find(store, "rate) OR (timed")).toEqual([]);
    expect(await find(store, "'; DROP TABLE tool_call_spans; --")).toEqual([]);
    expect(await find(store, "nothing-like-this")).toEqual([]);
    expect(() => textSearchQuerySchema.parse({ q: '"*()" *' })).toThrow("holds no letter or digit to search for");
  });

  it("narrows to a time range", async () => {
    expect(await find(store, "upstream", { from: String(T - DAY), to: String(T + DAY) })).toEqual(["message run-a/c1: HTTP 503 from api.example.com: [upstream] unavailable again"]);
  });

  it("filters the Runs list by text", async () => {
    const runs = async (text: string) => (await listRuns(store, listRunsQuerySchema.parse({ project: "p", text }))).runs.map((r) => r.runId);
    expect(await runs("limited")).toEqual(["run-c", "run-b"]);
    expect(await runs("booking")).toEqual(["run-a"]);
    expect(await runs("zebra")).toEqual([]);
  });

  it("forgets what retention deletes", async () => {
    await pruneExpiredRuns(store, { rawCutoffMs: T - DAY, maxSpans: 1_000_000, rollupCutoffMs: 0 });
    expect(await find(store, "upstream")).toEqual(["message run-a/c1: HTTP 503 from api.example.com: [upstream] unavailable again"]);
    expect(await find(store, "ancient")).toEqual([]);
  });
});
