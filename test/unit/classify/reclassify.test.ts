import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { createClassificationRule, deleteClassificationRule, getClassificationState, setBuiltinPack, updateClassificationRule } from "@/db/classify/rules";
import { ruleInputSchema } from "@/lib/contracts/classification";
import { reclassifyProject } from "@/server/jobs/reclassify-job";
import { callEndingRows, recountCallEndings } from "../../helpers/call-endings";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { s, T0 } from "../otlp/fixtures";
import { errorType, rollupsAndRecount, sendOtlp, status, toolSpan } from "./fixtures";

let store: Store;
const HELD = { held: async () => true };
const codes = async () => (await store.all<{ code: string | null }>("SELECT code FROM tool_call_spans ORDER BY span_id")).map((r) => r.code);
const settle = (chunk = 3) => reclassifyProject(store, "default", HELD, { chunk, now: () => T0 });
const seats = ruleInputSchema.parse({ name: "seats", match: { errorType: "SeatTakenError" }, set: { code: "seat_taken", errorClass: "ToolRefusal", retryable: false } });

/** Ten failures of four kinds and two successes, over several hours and runs. */
const history = (base: number) => [
  ...[0, 1, 2, 3].map((k) => toolSpan(base + k, "book", `seat ${k}A is taken`, [errorType("SeatTakenError"), s("faultline.run_id", `run${k % 2}`)], (base + k) * 1_800_000)),
  ...[4, 5].map((k) => toolSpan(base + k, "search", "slow down", [status(429), s("http.response.header.retry-after", `${k}`)], (base + k) * 1_800_000)),
  ...[6, 7].map((k) => toolSpan(base + k, "search", "failed", [errorType("quota_exceeded")], (base + k) * 1_800_000)),
  ...[8, 9].map((k) => toolSpan(base + k, "book", "weird thing", [errorType("WeirdError")], (base + k) * 1_800_000)),
  ...[10, 11].map((k) => toolSpan(base + k, "book", null, [], (base + k) * 1_800_000)),
];

async function expectRecount() {
  const r = await rollupsAndRecount(store);
  expect(r.spanRollups).toEqual(r.spanRecount);
  expect(r.spanRollups6h).toEqual(r.span6hRecount);
  expect(r.codes).toEqual(r.codesRecount);
  expect(r.runStats).toEqual(r.runRecount);
  expect(r.runCodes).toEqual(r.runCodesRecount);
  // A re-coded outcome (declined or not) moves the SLO's call endings.
  expect(await callEndingRows(store, "default")).toEqual(await recountCallEndings(store, "default"));
  return r;
}

describe.each(DIALECTS)("re-classification of stored calls (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("applies a new rule, an edit, a deletion and the pack switch to history, rollups equal to a recount after each", async () => {
    await sendOtlp(store, history(1));
    const before = await codes();
    expect(before).toEqual([null, null, null, null, "rate_limited", "rate_limited", "quota_exceeded", "quota_exceeded", null, null, null, null]);
    await expectRecount();

    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", seats, "test", T0));
    expect(await settle()).toEqual({ rows: 10, detail: "4 of 10 stored failures changed" });
    expect(await codes()).toEqual(["seat_taken", "seat_taken", "seat_taken", "seat_taken", "rate_limited", "rate_limited", "quota_exceeded", "quota_exceeded", null, null, null, null]);
    expect(await store.all("SELECT outcome, count(*) AS n FROM tool_call_spans GROUP BY outcome ORDER BY outcome")).toEqual([
      { outcome: "declined", n: 4 }, { outcome: "failed", n: 6 }, { outcome: "ok", n: 2 },
    ]);
    const r = await expectRecount();
    expect(r.runStats.find((x) => x.runId === "run0")).toMatchObject({ declined: 2 });
    expect(await getClassificationState(store, "default")).toMatchObject({ revision: 1, appliedRevision: 1, examined: 10, changed: 4, total: 10 });

    await store.transaction((tx) => updateClassificationRule(tx, "default", "r1", { ...seats, set: { code: "seat_gone", errorClass: null, retryable: true } }, "test", T0));
    await settle();
    expect((await codes()).slice(0, 4)).toEqual(["seat_gone", "seat_gone", "seat_gone", "seat_gone"]);
    // The edit no longer sets a class: the emitter's own class and outcome come back.
    expect(await store.all("SELECT DISTINCT outcome, error_class AS c FROM tool_call_spans WHERE tool = 'book' AND code = 'seat_gone'")).toEqual([{ outcome: "failed", c: "SeatTakenError" }]);
    await expectRecount();

    await store.transaction((tx) => setBuiltinPack(tx, "default", false, "test", T0));
    await settle();
    expect((await codes()).slice(4, 6)).toEqual([null, null]);
    const off = await expectRecount();
    expect(off.delays).toEqual([]);

    await store.transaction((tx) => deleteClassificationRule(tx, "default", "r1", "test", T0));
    await store.transaction((tx) => setBuiltinPack(tx, "default", true, "test", T0));
    await settle(100);
    expect(await codes()).toEqual(before);
    await expectRecount();
    expect(await store.all("SELECT count(*) AS n FROM codes WHERE code IN ('seat_taken', 'seat_gone')")).toEqual([{ n: 0 }]);
  });

  it("never touches an emitter-sent code unless the rule says so", async () => {
    await sendOtlp(store, history(1));
    const quota = ruleInputSchema.parse({ name: "quota", match: { tool: "search" }, set: { code: "search_failed" } });
    await store.transaction((tx) => createClassificationRule(tx, "default", "q", quota, "test", T0));
    await settle();
    expect((await codes()).slice(4, 8)).toEqual(["search_failed", "search_failed", "quota_exceeded", "quota_exceeded"]);
    await store.transaction((tx) => updateClassificationRule(tx, "default", "q", { ...quota, overrideEmitter: true }, "test", T0));
    await settle();
    expect((await codes()).slice(4, 8)).toEqual(["search_failed", "search_failed", "search_failed", "search_failed"]);
    await expectRecount();
    await store.transaction((tx) => deleteClassificationRule(tx, "default", "q", "test", T0));
    await settle();
    expect((await codes()).slice(4, 8)).toEqual(["rate_limited", "rate_limited", "quota_exceeded", "quota_exceeded"]);
    await expectRecount();
  });

  it("stays exact while ingest continues", async () => {
    await sendOtlp(store, history(1));
    await store.transaction((tx) => createClassificationRule(tx, "default", "r1", seats, "test", T0));
    const ingest = (async () => {
      for (let b = 0; b < 6; b++) await sendOtlp(store, history(100 + b * 20));
    })();
    await Promise.all([settle(2), ingest]);
    // Batches classified before they saw the new revision are left for the next pass.
    await settle(2);
    await expectRecount();
    expect(await store.all("SELECT count(*) AS n FROM failure_facts WHERE revision < 1")).toEqual([{ n: 0 }]);
    expect(await store.all("SELECT count(*) AS n FROM tool_call_spans WHERE code = 'seat_taken'")).toEqual([{ n: 28 }]);
  });
});
