import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ensureDefaultProject } from "@/db/keys";
import { createClassificationRule, reorderClassificationRules, setBuiltinPack, updateClassificationRule } from "@/db/classify/rules";
import { getCodeReleaseHistory } from "@/db/drift/get-code-release-history";
import { refreshDrift } from "@/db/drift/refresh-drift";
import { ruleInputSchema, type RuleInput } from "@/lib/contracts/classification";
import type { DriftFinding } from "@/lib/contracts/drift";
import { reclassifyProject } from "@/server/jobs/reclassify-job";
import { ingestNativeBatch } from "../../helpers/ingest";
import { DIALECTS, openTestStore } from "../../helpers/stores";

const T0 = Date.UTC(2026, 10, 2);
const DAY = 86_400_000;
const HELD = { held: async () => true };
let store: Store;

/**
 * One release of the `book` tool: 30 calls failing with a quota message and no code (the rules name
 * it), 30 failing with the emitter's own `seat_taken` at the given retryability, 40 ok.
 */
function release(version: string, day: number, seatRetryable: boolean, quotaRetryable?: boolean) {
  const at = T0 + day * DAY;
  const record = (n: number, fields: Record<string, unknown>) => ({
    type: "tool_call_span", id: `${version}-${n}`, run_id: `run-${version}-${n % 10}`, call_id: `${version}-c${n}`, tool: "book", tool_version: version,
    attempt: 1, started_at: at + n * 1000, ended_at: at + n * 1000 + 50, ...fields,
  });
  return [
    ...Array.from({ length: 30 }, (_, n) => record(n, { outcome: "failed", message: `quota exceeded for seat ${10 + n}A`, ...(quotaRetryable === undefined ? {} : { retryable: quotaRetryable }) })),
    ...Array.from({ length: 30 }, (_, n) => record(30 + n, { outcome: "failed", code: "seat_taken", error_class: "ToolFailure", retryable: seatRetryable, message: "seat is taken" })),
    ...Array.from({ length: 40 }, (_, n) => record(60 + n, { outcome: "ok" })),
  ];
}

/** A release whose 30 code-less failures are rate limits (the built-in pack codes them `rate_limited`) instead of quotas. */
const rateLimited = (version: string, day: number) =>
  release(version, day, true).map((r) => ("message" in r && String(r.message).startsWith("quota") ? { ...r, message: "rate limit exceeded" } : r));
const historyTexts = async (code: string) => (await getCodeReleaseHistory(store, { project: "default", code })).ruleEdits.map((e) => e.text);

const quota = (set: RuleInput["set"]) => ruleInputSchema.parse({ name: "Quota", match: { message: "quota exceeded*" }, set });
const send = (version: string, day: number, seatRetryable: boolean) => ingestNativeBatch(store, "default", undefined, release(version, day, seatRetryable));
const settle = () => reclassifyProject(store, "default", HELD, { now: () => T0 });
const findings = async () => {
  await refreshDrift(store, "default", T0 + 10 * DAY);
  const rows = await store.all<{ body: string }>("SELECT body FROM drift_findings WHERE project_id = 'default' ORDER BY rank");
  return rows.map((r) => JSON.parse(r.body) as DriftFinding).map((f) => [f.kind, f.code, f.renamedTo, f.fromRelease, f.toRelease, f.changes]);
};

describe.each(DIALECTS)("drift and classification rules (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it("reports no drift when a rule edit re-codes history, and still reports the emitter's real change", async () => {
    await store.transaction((tx) => createClassificationRule(tx, "default", "q", quota({ code: "quota_exceeded", errorClass: "ToolFailure", retryable: true }), "test", T0));
    expect(await send("1.0.0", 0, true)).toMatchObject({ accepted: 100 });
    expect(await findings()).toEqual([]);

    // The rule now says permanent: history is re-coded, and release 1.1.0 is coded by the new version.
    await store.transaction((tx) => updateClassificationRule(tx, "default", "q", quota({ code: "quota_exceeded", errorClass: "ToolFailure", retryable: false }), "test", T0 + 1 * DAY));
    await settle();
    // The emitter changed seat_taken's retryability in 1.1.0: a real change of meaning.
    await send("1.1.0", 2, false);
    expect(await findings()).toEqual([["repurposed", "seat_taken", null, "1.0.0", "1.1.0", ["retryable"]]]);

    // The rule renames its code: quota_exceeded is gone from 1.2.0 and quota_hit appears, by the rule alone.
    await store.transaction((tx) => updateClassificationRule(tx, "default", "q", quota({ code: "quota_hit", errorClass: "ToolFailure", retryable: false }), "test", T0 + 3 * DAY));
    await settle();
    await send("1.2.0", 4, false);
    expect(await findings()).toEqual([["repurposed", "seat_taken", null, "1.0.0", "1.1.0", ["retryable"]]]);
    expect(await store.all("SELECT count(*) AS n FROM tool_call_spans WHERE code = 'quota_hit'")).toEqual([{ n: 90 }]);

    const history = await getCodeReleaseHistory(store, { project: "default", code: "quota_exceeded" });
    // The code's page still shows what the rule set, per release, though drift does not judge it.
    expect(history.points.map((p) => [p.release, p.byClass, p.retryable])).toEqual([
      ["1.0.0", { ToolFailure: 30 }, { retryable: 30, permanent: 0 }],
      ["1.1.0", { ToolFailure: 30 }, { retryable: 0, permanent: 30 }],
    ]);
    expect(history.ruleEdits.map((e) => e.text)).toEqual([
      "rule “Quota” created as v1 at 2026-11-02T00:00:00.000Z",
      "rule “Quota” edited to v2 at 2026-11-03T00:00:00.000Z",
      "rule “Quota” edited to v3 at 2026-11-05T00:00:00.000Z",
    ]);
    expect((await getCodeReleaseHistory(store, { project: "default", code: "quota_hit" })).ruleEdits.map((e) => [e.action, e.version])).toEqual([["updated", 3]]);
  });

  it("reports what the emitter changed on a code a rule gives, with the rule's history on the finding", async () => {
    // The rule names the failure and leaves class and retryable as the emitter sent them.
    await store.transaction((tx) => createClassificationRule(tx, "default", "q", quota({ code: "quota_exceeded", errorClass: null, retryable: null }), "test", T0));
    await ingestNativeBatch(store, "default", undefined, release("1.0.0", 0, true, true));
    await store.transaction((tx) => updateClassificationRule(tx, "default", "q", { ...quota({ code: "quota_exceeded", errorClass: null, retryable: null }), name: "Quota limits" }, "test", T0 + DAY));
    await settle();
    await ingestNativeBatch(store, "default", undefined, release("1.1.0", 2, true, false));
    expect(await findings()).toEqual([["repurposed", "quota_exceeded", null, "1.0.0", "1.1.0", ["retryable"]]]);
    const [finding] = (await store.all<{ body: string }>("SELECT body FROM drift_findings")).map((r) => JSON.parse(r.body) as DriftFinding);
    expect(finding!.ruleNotes).toEqual(["rule “Quota limits” created as v1 at 2026-11-02T00:00:00.000Z", "rule “Quota limits” edited to v2 at 2026-11-03T00:00:00.000Z"]);
  });

  it("still reports a code that appears in a release when no rule changed since the earlier release", async () => {
    await store.transaction((tx) => createClassificationRule(tx, "default", "q", quota({ code: "quota_exceeded", errorClass: "ToolFailure", retryable: true }), "test", T0 - DAY));
    // 1.0.0 never fails with the quota message; 1.1.0 does: the tool's behaviour changed, the rule did not.
    const first = release("1.0.0", 0, true).filter((r) => !("message" in r && String(r.message).startsWith("quota")));
    await ingestNativeBatch(store, "default", undefined, first);
    await send("1.1.0", 2, true);
    expect(await findings()).toEqual([["added", "quota_exceeded", null, "1.0.0", "1.1.0", ["code"]]]);
  });
  it("reports no removed code when the built-in pack is switched off after drift folded its codes, and puts the switch in that code's history", async () => {
    expect(await ingestNativeBatch(store, "default", undefined, rateLimited("1.0.0", 0))).toMatchObject({ accepted: 100 });
    expect(await findings()).toEqual([]);
    expect(await store.all("SELECT count(*) AS n FROM tool_call_spans WHERE code = 'rate_limited'")).toEqual([{ n: 30 }]);

    expect(await store.transaction((tx) => setBuiltinPack(tx, "default", false, "test", T0 + DAY))).toBe(true);
    // Until history is re-classified, which codes the switch moved is not known: it may concern any.
    expect(await historyTexts("seat_taken")).toEqual(["built-in pack switched off at 2026-11-03T00:00:00.000Z (history is still being re-classified: it may concern any code)"]);
    await settle();
    expect(await store.all("SELECT count(*) AS n FROM tool_call_spans WHERE code = 'rate_limited'")).toEqual([{ n: 0 }]);
    // Switching it off again is no change.
    expect(await store.transaction((tx) => setBuiltinPack(tx, "default", false, "test", T0 + 2 * DAY))).toBe(false);

    // 1.1.0's rate limits come without a code: the pack's code is gone by the switch, not by the tool.
    await ingestNativeBatch(store, "default", undefined, rateLimited("1.1.0", 2));
    expect(await findings()).toEqual([]);
    expect(await historyTexts("rate_limited")).toEqual(["built-in pack switched off at 2026-11-03T00:00:00.000Z"]);
    // The emitter's own code was not moved by the switch.
    expect(await historyTexts("seat_taken")).toEqual([]);
  });

  it("reports no code change when a reorder hands calls to another rule's code, and puts the reorder in both codes' histories", async () => {
    await store.transaction((tx) => createClassificationRule(tx, "default", "q", quota({ code: "quota_exceeded", errorClass: "ToolFailure", retryable: true }), "test", T0 - DAY));
    const seat = ruleInputSchema.parse({ name: "Seat", match: { message: "*seat*" }, set: { code: "seat_quota" } });
    await store.transaction((tx) => createClassificationRule(tx, "default", "s", seat, "test", T0 - DAY));
    await send("1.0.0", 0, true);
    expect(await findings()).toEqual([]);

    expect(await store.transaction((tx) => reorderClassificationRules(tx, "default", ["q", "s"], "test", T0 + DAY))).toBe("unchanged");
    expect(await store.transaction((tx) => reorderClassificationRules(tx, "default", ["s", "q"], "test", T0 + DAY))).toBe("reordered");
    await settle();
    expect(await store.all("SELECT count(*) AS n FROM tool_call_spans WHERE code = 'seat_quota'")).toEqual([{ n: 30 }]);

    // Before, the quotas were quota_exceeded; now the seat rule comes first and calls them seat_quota.
    await send("1.1.0", 2, true);
    expect(await findings()).toEqual([]);
    expect(await historyTexts("quota_exceeded")).toEqual(["rule “Quota” created as v1 at 2026-11-01T00:00:00.000Z", "rules reordered at 2026-11-03T00:00:00.000Z"]);
    expect(await historyTexts("seat_quota")).toEqual(["rule “Seat” created as v1 at 2026-11-01T00:00:00.000Z", "rules reordered at 2026-11-03T00:00:00.000Z"]);
    // The seat rule never replaces the emitter's seat_taken: the reorder did not concern it.
    expect(await historyTexts("seat_taken")).toEqual([]);
  });
});
