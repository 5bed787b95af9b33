import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { createClassificationRule, deleteClassificationRule, updateClassificationRule } from "@/db/classify/rules";
import { getTold } from "@/db/told/get-told";
import { ruleInputSchema } from "@/lib/contracts/classification";
import { toldQuerySchema } from "@/lib/contracts/told";
import { reclassifyProject } from "@/server/jobs/reclassify-job";
import { callEndingRows, recountCallEndings } from "../../helpers/call-endings";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { ns, s, span, T0 } from "../otlp/fixtures";
import { errorType, sendOtlp, toolSpan } from "./fixtures";

let store: Store;
const HELD = { held: async () => true };
const settle = (chunk = 3) => reclassifyProject(store, "default", HELD, { chunk, now: () => T0 + 86_400_000 });
const weird = ruleInputSchema.parse({ name: "weird", match: { errorType: "WeirdError" }, set: { code: "weird_failure", retryable: true } });
const args = (seat: string) => s("gen_ai.tool.call.arguments", JSON.stringify({ seat }));

/**
 * Run k: a `book` call fails with WeirdError (no code from the emitter, none from the pack) and the
 * model is told so; its next call is `book` again, with other arguments that succeed (k < 3:
 * recovered) or with the same arguments failing the same way, untold (k ≥ 3: repeated).
 */
const runs = (base: number, count = 5) =>
  Array.from({ length: count }, (_, j) => {
    const k = base + j;
    const run = s("faultline.run_id", `run${k}`);
    const first = toolSpan(2 * k, "book", "weird thing", [errorType("WeirdError"), args("4A"), run, s("gen_ai.tool.call.result", `seat 4A: weird thing ${k}`)], k * 60_000);
    const next = j < 3 ? toolSpan(2 * k + 1, "book", null, [args("5B"), run], k * 60_000 + 1000) : toolSpan(2 * k + 1, "book", "weird thing", [errorType("WeirdError"), args("4A"), run], k * 60_000 + 1000);
    return [first, next];
  }).flat();

/** `told_step_counts` (keys that hold errors) and the same counts recounted from `told_steps`. */
async function toldCountsAndRecount() {
  const counts = await store.all<Record<string, unknown>>(
    `SELECT tool, code, release, shape, step, run_state AS "runState", calls, sum(errors) AS errors FROM told_step_counts
     GROUP BY tool, code, release, shape, step, run_state, calls HAVING sum(errors) <> 0 ORDER BY tool, code, release, shape, step, "runState", calls`,
  );
  const recount = await store.all<Record<string, unknown>>(
    `SELECT tool, code, release, shape, step, run_state AS "runState", calls, count(*) AS errors FROM told_steps
     GROUP BY tool, code, release, shape, step, run_state, calls ORDER BY tool, code, release, shape, step, "runState", calls`,
  );
  const num = (rows: Record<string, unknown>[]): Record<string, unknown>[] => rows.map((r) => ({ ...r, calls: Number(r.calls), errors: Number(r.errors) }));
  return { counts: num(counts), recount: num(recount) };
}

async function expectRecount() {
  const r = await toldCountsAndRecount();
  expect(r.counts).toEqual(r.recount);
  // A re-coded step can change whether a call counts as recovered: the SLO's call endings move with it.
  expect(await callEndingRows(store, "default")).toEqual(await recountCallEndings(store, "default"));
  return r;
}

/** The told answer's next-step counts for a code ('' for none), over all retained history (from the counts). */
async function stepsOf(code: string) {
  const answer = await getTold(store, toldQuerySchema.parse({}), T0 + 86_400_000);
  const steps = answer.groups.filter((g) => g.code === code).flatMap((g) => g.steps);
  const out: Record<string, number> = {};
  for (const x of steps) if (x.errors > 0) out[x.step] = (out[x.step] ?? 0) + x.errors;
  return out;
}

describe.each(DIALECTS)("re-classification of told steps (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("moves told steps and their counts with the final error when a rule names the group, and back when it goes", async () => {
    await sendOtlp(store, runs(1));
    expect(await stepsOf("")).toEqual({ recovered: 3, repeated: 2 });
    expect(await stepsOf("weird_failure")).toEqual({});
    await expectRecount();

    await store.transaction((tx) => createClassificationRule(tx, "default", "w", weird, "test", T0));
    await settle();
    expect(await stepsOf("weird_failure")).toEqual({ recovered: 3, repeated: 2 });
    expect(await stepsOf("")).toEqual({});
    const { recount } = await expectRecount();
    expect(recount.map((r) => [r.code, r.step, r.errors])).toEqual([["weird_failure", "recovered", 3], ["weird_failure", "repeated", 2]]);
    // The repeated call was re-coded too: the step names the code it failed with.
    expect(await store.all(`SELECT DISTINCT code, next_code AS "nextCode", shape FROM told_steps WHERE step = 'repeated'`)).toEqual([
      { code: "weird_failure", nextCode: "weird_failure", shape: "seat <id>: weird thing <n>" },
    ]);
    expect(await store.all("SELECT count(*) AS n FROM told_stale")).toEqual([{ n: 1 }]);

    await store.transaction((tx) => deleteClassificationRule(tx, "default", "w", "test", T0));
    await settle(100);
    expect(await stepsOf("")).toEqual({ recovered: 3, repeated: 2 });
    expect(await stepsOf("weird_failure")).toEqual({});
    await expectRecount();
  });

  it("a told error answering a call of an earlier request follows that call through a rule edit", async () => {
    await store.transaction((tx) => createClassificationRule(tx, "default", "w", weird, "test", T0));
    const run = s("faultline.run_id", "late");
    // Request 1: the failed call and the model's next call, which succeeds; the result it was told comes later.
    await sendOtlp(store, [
      toolSpan(3, "book", "weird thing", [errorType("WeirdError"), args("4A"), run], 3000),
      toolSpan(4, "book", null, [args("5B"), run], 6000),
    ]);
    const messages = [{ role: "tool", parts: [{ type: "tool_call_response", id: "call_3", response: "seat 4A: weird thing" }] }];
    await sendOtlp(store, [
      span({ spanId: "aaaaaaaaaaaaaaa1", name: "chat", startTimeUnixNano: ns(T0 + 5000), endTimeUnixNano: ns(T0 + 5300), attributes: [s("gen_ai.operation.name", "chat"), s("gen_ai.input.messages", JSON.stringify(messages))] }),
    ]);
    expect(await store.all("SELECT code FROM tool_errors")).toEqual([{ code: "weird_failure" }]);
    expect(await stepsOf("weird_failure")).toEqual({ recovered: 1 });

    await store.transaction((tx) => updateClassificationRule(tx, "default", "w", { ...weird, set: { ...weird.set, code: "weird_v2" } }, "test", T0));
    await settle();
    expect(await store.all("SELECT code FROM tool_errors")).toEqual([{ code: "weird_v2" }]);
    expect(await stepsOf("weird_v2")).toEqual({ recovered: 1 });
    expect(await stepsOf("weird_failure")).toEqual({});
    await expectRecount();
  });

  it("stays exact while ingest continues", async () => {
    await sendOtlp(store, runs(1));
    await store.transaction((tx) => createClassificationRule(tx, "default", "w", weird, "test", T0));
    const ingest = (async () => {
      for (let b = 1; b < 5; b++) await sendOtlp(store, runs(b * 10));
    })();
    await Promise.all([settle(2), ingest]);
    // Batches classified before they saw the new revision are left for the next pass.
    await settle(2);
    await expectRecount();
    expect(await stepsOf("weird_failure")).toEqual({ recovered: 15, repeated: 10 });
    expect(await stepsOf("")).toEqual({});
  });
});
