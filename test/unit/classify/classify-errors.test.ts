import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { createClassificationRule, deleteClassificationRule, updateClassificationRule } from "@/db/classify/rules";
import { ruleInputSchema } from "@/lib/contracts/classification";
import { reclassifyProject } from "@/server/jobs/reclassify-job";
import { ingestAdkRunEvents, ingestNativeBatch } from "../../helpers/ingest";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { b, i, ns, s, span, T0 } from "../otlp/fixtures";
import { rollupsAndRecount, sendOtlp, status, toolSpan } from "./fixtures";

let store: Store;
const HELD = { held: async () => true };
const settle = () => reclassifyProject(store, "default", HELD, { chunk: 2, now: () => T0 });

/** The runtime's final-error span for a call, without a code unless given. */
function errorSpan(n: number, call: string, tool: string, told: string, extra: ReturnType<typeof s>[] = []) {
  return span({
    spanId: (0x100 + n).toString(16).padStart(16, "0"),
    name: `faultline.tool_error ${tool}`,
    startTimeUnixNano: ns(T0 + n * 1000 + 500),
    endTimeUnixNano: ns(T0 + n * 1000 + 500),
    attributes: [s("faultline.run_id", "run1"), s("faultline.call_id", call), s("faultline.tool", tool), s("faultline.decision", "surfaced"), i("faultline.attempts", 1), s("faultline.told", told), ...extra],
  });
}

const errors = () =>
  store.all<Record<string, unknown>>(
    `SELECT e.call_id AS "callId", e.code, e.error_class AS "errorClass", e.retryable, f.rule_id AS "ruleId", f.rule_version AS "ruleVersion", f.prior, f.revision
     FROM tool_errors e LEFT JOIN error_facts f ON f.project_id = e.project_id AND f.event_id = e.event_id ORDER BY e.call_id`,
  );

/** The error rollups and the codes catalogue's final errors, and the same recounted from the stored final errors. */
async function errorCounters() {
  const all = (sql: string) => store.all<Record<string, unknown>>(sql);
  return {
    rollups: await all(`SELECT tool, code, error_class AS "errorClass", sum(errors) AS errors, sum(retryable_count) AS retryable
       FROM error_rollups_hourly GROUP BY tool, code, error_class HAVING sum(errors) <> 0 ORDER BY tool, code, error_class`),
    recount: await all(`SELECT tool, coalesce(code, '') AS code, coalesce(error_class, '') AS "errorClass", count(*) AS errors,
       sum(CASE WHEN retryable = 1 THEN 1 ELSE 0 END) AS retryable FROM tool_errors GROUP BY tool, coalesce(code, ''), coalesce(error_class, '') ORDER BY tool, code, "errorClass"`),
    codes: await all(`SELECT code, tool, sum(errors) AS errors FROM codes GROUP BY code, tool HAVING sum(errors) <> 0 ORDER BY code, tool`),
    codesRecount: await all(`SELECT code, tool, count(*) AS errors FROM tool_errors WHERE code IS NOT NULL GROUP BY code, tool ORDER BY code, tool`),
  };
}

async function expectExact() {
  const c = await errorCounters();
  expect(c.rollups).toEqual(c.recount);
  expect(c.codes).toEqual(c.codesRecount);
  const r = await rollupsAndRecount(store);
  expect(r.spanRollups).toEqual(r.spanRecount);
  expect(r.codes.filter((c) => Number(c.spans) !== 0)).toEqual(r.codesRecount);
  expect(r.runCodes).toEqual(r.runCodesRecount);
}

const seats = ruleInputSchema.parse({ name: "seats", match: { message: "seat * is taken" }, set: { code: "seat_taken", errorClass: "ToolRefusal", retryable: false } });
const run1 = s("faultline.run_id", "run1");

describe.each(DIALECTS)("final errors through the rules (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("codes a final error without one like its call's last failed attempt, else by its told text; keeps an emitter's code", async () => {
    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", seats, "test", T0));
    const result = await sendOtlp(store, [
      // call_1: a 429 attempt coded by the pack; its final error follows it.
      toolSpan(1, "search", "slow down", [status(429), run1]),
      errorSpan(1, "call_1", "search", "error: slow down"),
      // call_2: no attempt in the batch; the told text matches the project's rule.
      errorSpan(2, "call_2", "book", "seat 14C is taken"),
      // call_3: the emitter's own code stays (the rule does not override).
      errorSpan(3, "call_3", "book", "seat 2A is taken", [s("faultline.code", "seat_unavailable"), s("faultline.error_class", "ToolFailure"), b("faultline.retryable", true)]),
      // call_4: nothing matches: left without a code.
      errorSpan(4, "call_4", "book", "something odd"),
    ]);
    expect(result).toEqual({ accepted: 5, duplicates: 0, rejected: [] });
    const seatsPrior = JSON.stringify({ code: null, errorClass: null, retryable: null });
    expect(await errors()).toEqual([
      { callId: "call_1", code: "rate_limited", errorClass: "ToolFailure", retryable: 1, ruleId: "builtin.http_429", ruleVersion: 1, prior: seatsPrior, revision: 1 },
      { callId: "call_2", code: "seat_taken", errorClass: "ToolRefusal", retryable: 0, ruleId: "r1", ruleVersion: 1, prior: seatsPrior, revision: 1 },
      { callId: "call_3", code: "seat_unavailable", errorClass: "ToolFailure", retryable: 1, ruleId: null, ruleVersion: null, prior: null, revision: 1 },
      { callId: "call_4", code: null, errorClass: null, retryable: null, ruleId: null, ruleVersion: null, prior: null, revision: 1 },
    ]);
    await expectExact();
  });

  it("re-classifies stored final errors after their spans, moving every counter exactly, and back from the emitter's fields", async () => {
    await sendOtlp(store, [errorSpan(2, "call_2", "book", "seat 14C is taken"), errorSpan(3, "call_3", "book", "seat 9F is taken"), errorSpan(4, "call_4", "book", "odd")]);
    expect((await errors()).map((e) => e.code)).toEqual([null, null, null]);
    await expectExact();

    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", seats, "test", T0));
    expect(await settle()).toEqual({ rows: 3, detail: "2 of 3 stored failures changed" });
    expect((await errors()).map((e) => [e.code, e.errorClass, e.retryable, e.ruleId, e.ruleVersion, e.revision])).toEqual([
      ["seat_taken", "ToolRefusal", 0, "r1", 1, 1], ["seat_taken", "ToolRefusal", 0, "r1", 1, 1], [null, null, null, null, null, 1],
    ]);
    await expectExact();

    await store.transaction((tx) => updateClassificationRule(tx, "default", "r1", { ...seats, set: { code: "seat_gone", errorClass: null, retryable: null } }, "test", T0));
    await settle();
    // The edit sets no class nor retryable: the emitter's own (none) come back.
    expect((await errors()).map((e) => [e.code, e.errorClass, e.retryable, e.ruleVersion])).toEqual([["seat_gone", null, null, 2], ["seat_gone", null, null, 2], [null, null, null, null]]);
    await expectExact();

    await store.transaction((tx) => deleteClassificationRule(tx, "default", "r1", "test", T0));
    await settle();
    expect((await errors()).map((e) => [e.code, e.ruleId, e.prior])).toEqual([[null, null, null], [null, null, null], [null, null, null]]);
    await expectExact();
    expect(await store.all("SELECT count(*) AS n FROM codes WHERE code IN ('seat_taken', 'seat_gone')")).toEqual([{ n: 0 }]);
  });

  it("re-codes a final error with its call's attempt when a rule re-codes the attempt, whatever its own told text", async () => {
    await sendOtlp(store, [toolSpan(5, "book", "seat 5B is taken", [run1]), errorSpan(5, "call_5", "book", "error: booking failed")]);
    expect((await errors()).map((e) => e.code)).toEqual([null]);
    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", seats, "test", T0));
    expect(await settle()).toEqual({ rows: 2, detail: "2 of 2 stored failures changed" });
    expect((await errors()).map((e) => [e.code, e.errorClass, e.ruleId])).toEqual([["seat_taken", "ToolRefusal", "r1"]]);
    expect(await store.all("SELECT code, outcome FROM tool_call_spans")).toEqual([{ code: "seat_taken", outcome: "declined" }]);
    await expectExact();
  });

  it("codes the reference kit's untyped final error with its call, by the pack's wording rules", async () => {
    const events = [
      { kind: "tool_call", name: "book", detail: null, at: 1767225600.0, usage: null },
      { kind: "tool_error", name: "book", detail: "connection refused by upstream", at: 1767225600.5, usage: null },
    ];
    expect(await ingestAdkRunEvents(store, "default", { run_id: "run_k", agent: "planner", state: "completed" }, events)).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
    const prior = JSON.stringify({ code: null, errorClass: null, retryable: null });
    expect(await errors()).toEqual([
      { callId: "run_k#call@1", code: "upstream_unavailable", errorClass: "ToolFailure", retryable: 1, ruleId: "builtin.text_connection", ruleVersion: 1, prior, revision: 0 },
    ]);
    expect(await store.all("SELECT code, outcome FROM tool_call_spans")).toEqual([{ code: "upstream_unavailable", outcome: "failed" }]);
    await expectExact();
  });

  it("keeps a native final error's required code, even under a rule that overrides emitters", async () => {
    const override = ruleInputSchema.parse({ name: "all", match: { tool: "book" }, set: { code: "book_failed" }, overrideEmitter: true });
    await store.transaction((tx) => createClassificationRule(tx, "default", "o", override, "test", T0));
    await ingestNativeBatch(store, "default", undefined, [
      { type: "tool_error", id: "e1", run_id: "run1", call_id: "c1", tool: "book", code: "seat_taken", error_class: "ToolRefusal", retryable: false, attempts: 1, decision: "surfaced", told: "seat 1A is taken", occurred_at: T0 },
    ]);
    expect(await errors()).toEqual([{ callId: "c1", code: "seat_taken", errorClass: "ToolRefusal", retryable: 0, ruleId: null, ruleVersion: null, prior: null, revision: null }]);
  });
});
