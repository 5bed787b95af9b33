import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { createClassificationRule, setBuiltinPack } from "@/db/classify/rules";
import { ruleInputSchema } from "@/lib/contracts/classification";
import { groupKeyOf, groupParts } from "@/lib/classify/group-key";
import { ingestNativeBatch } from "../../helpers/ingest";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { s, T0 } from "../otlp/fixtures";
import { errorType, rollupsAndRecount, sendOtlp, status, toolSpan } from "./fixtures";

let store: Store;
const spans = () =>
  store.all<Record<string, unknown>>(
    `SELECT s.span_id AS "spanId", s.code, s.outcome, s.error_class AS "errorClass", s.retryable, s.retry_after_ms AS "retryAfterMs", f.rule_id AS "ruleId",
       f.rule_version AS "ruleVersion", f.group_key AS "groupKey", f.prior, f.http_status AS "httpStatus", f.error_type AS "errorType", f.revision
     FROM tool_call_spans s LEFT JOIN failure_facts f ON f.project_id = s.project_id AND f.span_id = s.span_id ORDER BY s.span_id`,
  );

describe.each(DIALECTS)("classification at ingest (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("codes HTTP failures with the built-in pack, groups the rest, and leaves successes alone", async () => {
    const result = await sendOtlp(store, [
      toolSpan(1, "search", "upstream said no", [status(429), s("http.response.header.retry-after", "2")]),
      toolSpan(2, "search", "seat 12A is taken", [errorType("SeatTakenError")]),
      toolSpan(3, "search", null),
      toolSpan(4, "search", "failed", [errorType("quota_exceeded")]),
    ]);
    expect(result).toEqual({ accepted: 4, duplicates: 0, rejected: [] });
    const group = groupKeyOf(groupParts({ tool: "search", errorType: "SeatTakenError", message: "seat 12A is taken", httpStatus: null }));
    expect(await spans()).toEqual([
      {
        spanId: "0000000000000001", code: "rate_limited", outcome: "failed", errorClass: "ToolFailure", retryable: 1, retryAfterMs: 2000,
        ruleId: "builtin.http_429", ruleVersion: 1, groupKey: null, httpStatus: 429, errorType: null, revision: 0,
        prior: JSON.stringify({ code: null, errorClass: null, retryable: null, outcome: "failed", retryAfterMs: null }),
      },
      {
        spanId: "0000000000000002", code: null, outcome: "failed", errorClass: "SeatTakenError", retryable: null, retryAfterMs: null,
        ruleId: null, ruleVersion: null, groupKey: group, prior: null, httpStatus: null, errorType: "SeatTakenError", revision: 0,
      },
      {
        spanId: "0000000000000003", code: null, outcome: "ok", errorClass: null, retryable: null, retryAfterMs: null,
        ruleId: null, ruleVersion: null, groupKey: null, prior: null, httpStatus: null, errorType: null, revision: null,
      },
      {
        spanId: "0000000000000004", code: "quota_exceeded", outcome: "failed", errorClass: null, retryable: null, retryAfterMs: null,
        ruleId: null, ruleVersion: null, groupKey: null, prior: null, httpStatus: null, errorType: "quota_exceeded", revision: 0,
      },
    ]);
    const r = await rollupsAndRecount(store);
    expect(r.spanRollups).toEqual(r.spanRecount);
    expect(r.codes).toEqual(r.codesRecount);
    expect(r.runCodes).toEqual(r.runCodesRecount);
    // Conformance counts what the emitter sent: two failures came without a code.
    expect(await store.all("SELECT spans, non_ok AS \"nonOk\", no_code AS \"noCode\" FROM conformance_counts")).toEqual([{ spans: 4, nonOk: 3, noCode: 2 }]);
  });

  it("stores facts for the spans a batch wrote only, a duplicate's none, in a batch of new and stored spans", async () => {
    const failing = (n: number) => toolSpan(n, "search", "upstream said no", [status(503)]);
    await sendOtlp(store, [failing(1)]);
    // A stored span without its facts row: sent again, it is a duplicate and gets none.
    await store.run("DELETE FROM failure_facts");
    expect(await sendOtlp(store, [failing(1), failing(2)])).toEqual({ accepted: 2, duplicates: 1, rejected: [] });
    expect(await store.all(`SELECT span_id AS "spanId", http_status AS "httpStatus" FROM failure_facts ORDER BY span_id`)).toEqual([{ spanId: "0000000000000002", httpStatus: 503 }]);
  });

  it("applies the project's rules first, at the current revision, and honours the pack switch", async () => {
    const input = ruleInputSchema.parse({ name: "seats", match: { errorType: "SeatTakenError" }, set: { code: "seat_taken", errorClass: "ToolRefusal", retryable: false } });
    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", input, "test", T0));
    await store.transaction((tx) => setBuiltinPack(tx, "default", false, "test", T0));
    await sendOtlp(store, [toolSpan(1, "search", "seat 12A is taken", [errorType("SeatTakenError")]), toolSpan(2, "search", "slow down", [status(429)])]);
    const rows = await spans();
    expect(rows.map((r) => [r.code, r.outcome, r.errorClass, r.ruleId, r.ruleVersion, r.revision])).toEqual([
      ["seat_taken", "declined", "ToolRefusal", "r1", 1, 2],
      [null, "failed", null, null, null, 2],
    ]);
    const r = await rollupsAndRecount(store);
    expect(r.runStats).toEqual(r.runRecount);
  });

  it("keeps a native record's code whatever the rules say", async () => {
    const input = ruleInputSchema.parse({ name: "all", match: { tool: "*" }, set: { code: "renamed" }, overrideEmitter: true });
    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", input, "test", T0));
    await ingestNativeBatch(store, "default", { service: "agent", release: "1.0.0" }, [
      {
        type: "tool_call_span", id: "n1", run_id: "run", call_id: "c1", tool: "book", attempt: 1, started_at: T0, ended_at: T0 + 5, outcome: "failed",
        code: "booking_locked", error_class: "ToolFailure", retryable: true,
      },
    ]);
    expect((await spans()).map((r) => [r.code, r.ruleId])).toEqual([["booking_locked", null]]);
  });
});
