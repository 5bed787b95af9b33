import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { decodeJsonRequest } from "@/lib/ingest/otlp/decode";
import { ingestOtlp } from "../../helpers/ingest";
import pg from "pg";
import { DIALECTS, TEST_PG_URL, openTestStore } from "../../helpers/stores";
import { ns, request, s, span, T0 } from "../otlp/fixtures";

// Plain GenAI instrumentation sends no attempt numbers: three sibling spans of one call id (failed,
// failed, ok). A batch span processor may export them in separate requests and out of order.
const attempt = (spanId: string, offset: number, failed: boolean) =>
  span({
    spanId,
    startTimeUnixNano: ns(T0 + offset),
    endTimeUnixNano: ns(T0 + offset + 50),
    attributes: [s("gen_ai.operation.name", "execute_tool"), s("gen_ai.tool.name", "lookup"), s("gen_ai.tool.call.id", "call_1"), ...(failed ? [s("error.type", "upstream_unavailable")] : [])],
    ...(failed ? { status: { code: 2, message: "503" } } : {}),
  });
const FIRST = attempt("0000000000000001", 0, true);
const SECOND = attempt("0000000000000002", 1000, true);
const THIRD = attempt("0000000000000003", 2000, false);

let store: Store;
const all = (sql: string) => store.all<Record<string, unknown>>(sql);
const send = (...spans: unknown[]) => ingestOtlp(store, "default", decodeJsonRequest(request(spans)));

/** The attempt-dependent rollups next to what a recount of the raw spans gives. */
async function countersAndRecount() {
  return {
    spans: await all("SELECT span_id, attempt, derived FROM tool_call_spans ORDER BY span_id"),
    rollup: await all(
      `SELECT sum(spans) AS spans, sum(first_attempts) AS calls, sum(second_attempts) AS second, sum(retry_attempts) AS retries, max(max_attempt) AS "maxAttempt" FROM span_rollups_hourly`,
    ),
    recount: await all(
      `SELECT count(*) AS spans, sum(CASE WHEN attempt = 1 THEN 1 ELSE 0 END) AS calls, sum(CASE WHEN attempt = 2 THEN 1 ELSE 0 END) AS second,
         sum(CASE WHEN attempt > 1 THEN 1 ELSE 0 END) AS retries, max(attempt) AS "maxAttempt" FROM tool_call_spans`,
    ),
    attemptCounts: await all("SELECT attempt, spans FROM attempt_counts_hourly ORDER BY attempt"),
    attemptCounts6h: await all("SELECT attempt, spans FROM attempt_counts_6h ORDER BY attempt"),
    runStats: await all("SELECT attempts, calls, retries, failed_attempts FROM run_stats"),
  };
}

const SETTLED = {
  spans: [
    { span_id: "0000000000000001", attempt: 1, derived: "run_id,attempt" },
    { span_id: "0000000000000002", attempt: 2, derived: "run_id,attempt" },
    { span_id: "0000000000000003", attempt: 3, derived: "run_id,attempt" },
  ],
  rollup: [{ spans: 3, calls: 1, second: 1, retries: 2, maxAttempt: 3 }],
  recount: [{ spans: 3, calls: 1, second: 1, retries: 2, maxAttempt: 3 }],
  attemptCounts: [{ attempt: 1, spans: 1 }, { attempt: 2, spans: 1 }, { attempt: 3, spans: 1 }],
  attemptCounts6h: [{ attempt: 1, spans: 1 }, { attempt: 2, spans: 1 }, { attempt: 3, spans: 1 }],
  runStats: [{ attempts: 3, calls: 1, retries: 2, failed_attempts: 2 }],
};

describe.each(DIALECTS)("derived attempt numbers across export requests (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("numbers siblings exported in one request by start time", async () => {
    expect(await send(THIRD, FIRST, SECOND)).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
    expect(await countersAndRecount()).toEqual(SETTLED);
  });

  it("renumbers stored siblings when an earlier one arrives later, and moves the counters with them", async () => {
    await send(THIRD);
    expect((await countersAndRecount()).spans).toEqual([{ span_id: "0000000000000003", attempt: 1, derived: "run_id,attempt" }]);
    await send(SECOND);
    await send(FIRST);
    expect(await countersAndRecount()).toEqual(SETTLED);
  });

  it("counts a re-delivered request once", async () => {
    await send(SECOND, THIRD);
    await send(FIRST);
    expect(await send(SECOND, THIRD)).toEqual({ accepted: 2, duplicates: 2, rejected: [] });
    expect(await send(FIRST, SECOND)).toEqual({ accepted: 2, duplicates: 2, rejected: [] });
    expect(await countersAndRecount()).toEqual(SETTLED);
  });
});

describe.runIf(DIALECTS.includes("postgres"))("derived attempt numbers while another node numbers the call (postgres)", () => {
  let blocker: pg.Client | undefined;
  beforeEach(async () => {
    store = await openTestStore("postgres");
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await blocker?.end();
    blocker = undefined;
    await store.close();
  });

  it("waits for the call's lock (taken with BEGIN) before reading its stored siblings", async () => {
    await send(SECOND);
    const [stored] = await all("SELECT run_id, call_id FROM tool_call_spans");
    const database = (await all("SELECT current_database() AS name"))[0]!.name as string;
    const url = new URL(TEST_PG_URL!);
    url.pathname = `/${database}`;
    blocker = new pg.Client({ connectionString: url.toString() });
    await blocker.connect();
    // Another node, mid-batch on the same call, holds the call's lock.
    await blocker.query("BEGIN");
    await blocker.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", [`default|${stored!.run_id}|${stored!.call_id}`]);
    const sent = send(FIRST);
    const waiting = async () => (await all("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"))[0]!.n;
    while (Number(await waiting()) === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(await all("SELECT span_id FROM tool_call_spans ORDER BY span_id")).toEqual([{ span_id: "0000000000000002" }]);
    await blocker.query("COMMIT");
    expect(await sent).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    expect(await all("SELECT span_id, attempt FROM tool_call_spans ORDER BY span_id")).toEqual([
      { span_id: "0000000000000001", attempt: 1 },
      { span_id: "0000000000000002", attempt: 2 },
    ]);
  });
});
