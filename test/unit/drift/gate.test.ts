import { afterEach, describe, expect, it } from "vitest";
import { getCodeContract } from "@/db/drift/get-code-contract";
import { getGate } from "@/db/drift/get-gate";
import type { CodeContract } from "@/lib/contracts/gate";
import { DIALECTS } from "../../helpers/stores";
import { Scenario, T0 } from "./scenario";

const search = (v: string, day: number) => ({ tool: "search", toolVersion: v, day });

describe.each(DIALECTS)("the release gate on drift scenarios (%s)", (dialect) => {
  let opened: Scenario[] = [];
  const scenario = async () => {
    const s = await Scenario.open(dialect);
    opened.push(s);
    return s;
  };
  afterEach(async () => {
    await Promise.all(opened.map((s) => s.store.close()));
    opened = [];
  });
  const gate = (s: Scenario, release: string, against: Parameters<typeof getGate>[1]["against"] = { kind: "predecessor" }) =>
    getGate(s.store, { project: "default", release, against, upToDate: true });
  const contract = async (s: Scenario, release: string): Promise<CodeContract> => (await getCodeContract(s.store, { project: "default", release, now: T0 }))!;

  it("fails a retry_after change in a patch, against the predecessor and against its contract alike", async () => {
    const s = await scenario();
    s.failing(20, { ...search("1.0.0", 0), code: "rate_limited", retryAfterMs: 1000 }).ok(20, search("1.0.0", 0));
    s.failing(20, { ...search("1.0.1", 2), code: "rate_limited", retryAfterMs: 5000 }).ok(20, search("1.0.1", 2));
    await s.findings();
    const sentence =
      "`rate_limited` on `search` asked for a median retry_after of 1 s (p90 1 s) in 1.0.0 (20 calls) and a median retry_after of 5 s (p90 5 s) in 1.0.1 (20 calls): " +
      "behaviour drift in a patch release, a SemVer violation; clients that honour retry_after on `rate_limited` will now wait longer: check their deadlines leave 5 s from 1.0.1.";
    const live = await gate(s, "1.0.1");
    expect([live.verdict, live.violations.map((f) => [f.metric, f.sentence])]).toEqual(["fail", [["retry_after", sentence]]]);
    const doc = await gate(s, "1.0.1", { kind: "contract", contract: await contract(s, "1.0.0") });
    expect([doc.verdict, doc.violations.map((f) => f.sentence), doc.uncheckedRules]).toEqual(["fail", live.violations.map((f) => f.sentence), ["retry_after_p90", "rename_told_wording"]]);
  });

  it("cannot see a p90-only retry_after change from a contract, and says so", async () => {
    const s = await scenario();
    s.failing(20, { ...search("1.0.0", 0), code: "rate_limited", retryAfterMs: 1000 });
    s.failing(17, { ...search("1.0.1", 2), code: "rate_limited", retryAfterMs: 1000 }).failing(3, { ...search("1.0.1", 2), code: "rate_limited", retryAfterMs: 8000 });
    await s.findings();
    expect((await gate(s, "1.0.1")).violations.map((f) => f.metric)).toEqual(["retry_after"]);
    const doc = await gate(s, "1.0.1", { kind: "contract", contract: await contract(s, "1.0.0") });
    expect([doc.verdict, doc.violations, doc.uncheckedRules]).toEqual(["pass", [], ["retry_after_p90", "rename_told_wording"]]);
  });

  it("fails a code removed in a patch, from the contract too, and lists it as no longer seen", async () => {
    const s = await scenario();
    s.failing(20, { ...search("1.0.0", 0), code: "index_missing" }).failing(20, { ...search("1.0.0", 0), code: "upstream_timeout" });
    s.failing(20, { ...search("1.0.1", 2), code: "upstream_timeout" }).ok(20, search("1.0.1", 2));
    await s.findings();
    for (const against of [{ kind: "predecessor" } as const, { kind: "contract", contract: await contract(s, "1.0.0") } as const]) {
      const a = await gate(s, "1.0.1", against);
      expect([a.verdict, a.violations.map((f) => [f.kind, f.code, f.bump]), a.removedCodes]).toEqual([
        "fail",
        [["removed", "index_missing", "patch"]],
        [{ tool: "search", code: "index_missing", calls: 20 }],
      ]);
    }
  });

  it("never fails releases that are not versions: their findings are listed, not judged", async () => {
    const s = await scenario();
    s.failing(20, { ...search("build-17", 0), code: "upstream_timeout", retryable: true });
    s.failing(20, { ...search("build-18", 2), code: "upstream_timeout", retryable: false });
    await s.findings();
    const a = await gate(s, "build-18");
    expect([a.verdict, a.violations, a.otherFindings.map((f) => [f.kind, f.verdict, f.bump])]).toEqual(["pass", [], [["repurposed", "not_semver", "not_semver"]]]);
  });
});
