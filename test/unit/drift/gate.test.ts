// The release gate's verdict matrix on both engines: worse, better, unchanged, model behaviour,
// undecided and contract, each answer checked against the Drift page's findings for the release.
import { afterEach, describe, expect, it } from "vitest";
import { getCodeContract } from "@/db/drift/get-code-contract";
import { getGate } from "@/db/drift/get-gate";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { refreshDrift } from "@/db/drift/refresh-drift";
import type { CodeContract, GateResponse } from "@/lib/contracts/gate";
import type { ToldStep } from "@/lib/contracts/told";
import { ingestNativeBatch } from "../../helpers/ingest";
import { DIALECTS } from "../../helpers/stores";
import { allRecords, type ToldRunSpec } from "../../helpers/told-runs";
import { Scenario, T0 } from "./scenario";

const search = (v: string, day: number) => ({ tool: "search", toolVersion: v, day });

/** n told runs of `book_flight` in `release`: `recovered` of them recover after being told `bad_date`, the rest give up. */
function toldRuns(release: string, recovered: number, gaveUp: number, from: number): ToldRunSpec[] {
  const next = (i: number): ToldStep => (i < recovered ? "recovered" : "gave_up");
  return Array.from({ length: recovered + gaveUp }, (_, i) => ({
    runId: `r-${release}-${i}`, release, tool: "book_flight", code: "bad_date", told: "error: bad_date: invalid date", next: next(i), at: from + i * 60_000,
  }));
}

describe.each(DIALECTS)("the release gate's verdict matrix (%s)", (dialect) => {
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
  /** The gate's findings are exactly the Drift page's findings into the release, verdict for verdict. */
  const agreesWithDriftPage = async (s: Scenario, a: GateResponse) => {
    const page = (await listDriftFindings(s.store, { project: "default" })).findings.filter((f) => f.toRelease === a.release);
    const listed = [...a.violations, ...a.otherFindings, ...a.improvements];
    expect(listed.map((f) => [f.id, f.verdict]).sort()).toEqual(page.map((f) => [f.id, f.verdict]).sort());
  };
  const pick = (a: GateResponse) => [a.verdict, a.reason, a.message];

  it("worse: a retry_after rise in a patch fails, against the predecessor and its contract alike; the contract's sentence has no p90 it does not know", async () => {
    const s = await scenario();
    s.failing(20, { ...search("1.0.0", 0), code: "rate_limited", retryAfterMs: 1000 }).ok(20, search("1.0.0", 0));
    s.failing(20, { ...search("1.0.1", 2), code: "rate_limited", retryAfterMs: 5000 }).ok(20, search("1.0.1", 2));
    await s.findings();
    const live = await gate(s, "1.0.1");
    expect(pick(live)).toEqual(["fail", null, "1 SemVer violation in release 1.0.1"]);
    expect(live.violations.map((f) => [f.metric, f.direction, f.sentence])).toEqual([
      [
        "retry_after",
        "worse",
        "`rate_limited` on `search` asked for a median retry_after of 1 s (p90 1 s) in 1.0.0 (20 calls) and a median retry_after of 5 s (p90 5 s) in 1.0.1 (20 calls): " +
          "behaviour drift in a patch release, a SemVer violation; clients that honour retry_after on `rate_limited` will now wait longer: check their deadlines leave 5 s from 1.0.1.",
      ],
    ]);
    await agreesWithDriftPage(s, live);
    const doc = await gate(s, "1.0.1", { kind: "contract", contract: await contract(s, "1.0.0") });
    expect(doc.verdict).toBe("fail");
    expect(doc.violations.map((f) => f.sentence)).toEqual([
      "`rate_limited` on `search` asked for a median retry_after of 1 s in 1.0.0 (20 calls) and a median retry_after of 5 s in 1.0.1 (20 calls): " +
        "behaviour drift in a patch release, a SemVer violation; clients that honour retry_after on `rate_limited` will now wait longer: check their deadlines leave 5 s from 1.0.1.",
    ]);
    expect(doc.unchecked.map((u) => u.check)).toEqual(["retry_after_p90", "rename_told_wording", "self_correction"]);
    expect(doc.unchecked[0]!.why).toBe(
      "the document keeps only the median retry_after, so waits are compared by their medians: a change in the slowest 10 % alone is not seen",
    );
  });

  it("worse: calls that stop recovering after a code fail a minor release", async () => {
    const s = await scenario();
    s.failing(30, { ...search("1.3.0", 0), code: "upstream_unavailable", recovers: true, decision: "retried" });
    s.failing(30, { ...search("1.4.0", 1), code: "upstream_unavailable", decision: "retried" });
    await s.findings();
    const a = await gate(s, "1.4.0");
    expect(pick(a)).toEqual(["fail", null, "1 SemVer violation in release 1.4.0"]);
    expect(a.violations.map((f) => [f.kind, f.metric, f.direction, f.severity])).toEqual([["behaviour", "recovery", "worse", "high"]]);
    await agreesWithDriftPage(s, a);
  });

  it("better: calls that now recover, and shorter waits, pass a patch release as improvements listed for information", async () => {
    const s = await scenario();
    s.failing(30, { ...search("1.3.0", 0), code: "upstream_unavailable", decision: "retried" });
    s.failing(20, { ...search("1.3.0", 0), code: "rate_limited", retryAfterMs: 8000 });
    s.failing(30, { ...search("1.3.1", 1), code: "upstream_unavailable", recovers: true, decision: "retried" });
    s.failing(20, { ...search("1.3.1", 1), code: "rate_limited", retryAfterMs: 1000 });
    await s.findings();
    const a = await gate(s, "1.3.1");
    expect(pick(a)).toEqual(["pass", null, "no SemVer violation in release 1.3.1 (2 improvements listed)"]);
    expect(a.violations).toEqual([]);
    expect(a.improvements.map((f) => [f.metric, f.direction, f.verdict, f.severity]).sort()).toEqual([
      ["recovery", "better", "improvement", "info"],
      ["retry_after", "better", "improvement", "info"],
    ]);
    expect(a.improvements.find((f) => f.metric === "recovery")!.sentence).toBe(
      "`upstream_unavailable` on `search` recovered on a later attempt in 0% of calls in 1.3.0 (30 calls) and in 100% in 1.3.1 (30 calls): " +
        "behaviour drift for the better in a patch release, an improvement listed for information; `upstream_unavailable` now recovers when retried: a retry policy for it pays off from 1.3.1.",
    );
    await agreesWithDriftPage(s, a);
  });

  it("a repurposed code stays a violation whichever way it moved: permanent → retryable in a patch fails", async () => {
    const s = await scenario();
    s.failing(20, { ...search("1.0.0", 0), code: "upstream_timeout", retryable: false });
    s.failing(20, { ...search("1.0.1", 2), code: "upstream_timeout", retryable: true });
    await s.findings();
    const a = await gate(s, "1.0.1");
    expect([a.verdict, a.violations.map((f) => [f.kind, f.direction, f.severity])]).toEqual(["fail", [["repurposed", null, "critical"]]]);
    await agreesWithDriftPage(s, a);
  });

  it("unchanged: the same behaviour passes with every tool compared and nothing listed", async () => {
    const s = await scenario();
    s.failing(20, { ...search("1.0.0", 0), code: "rate_limited", retryAfterMs: 1000 }).ok(20, search("1.0.0", 0));
    s.failing(20, { ...search("1.0.1", 2), code: "rate_limited", retryAfterMs: 1000 }).ok(20, search("1.0.1", 2));
    await s.findings();
    const a = await gate(s, "1.0.1");
    expect(pick(a)).toEqual(["pass", null, "no SemVer violation in release 1.0.1"]);
    expect([a.comparisons, a.unjudged, a.violations, a.otherFindings, a.improvements]).toEqual([[{ tool: "search", from: "1.0.0", to: "1.0.1", fromCalls: 40, toCalls: 40 }], [], [], [], []]);
    await agreesWithDriftPage(s, a);
  });

  it("model behaviour: a drop in self-correction fails the release as the Drift page says, against the predecessor and a named release; a rise is an improvement", async () => {
    const s = await scenario();
    const DAY = 86_400_000;
    const T = Date.UTC(2026, 10, 2, 9);
    const runs = [...toldRuns("1.3.0", 16, 4, T), ...toldRuns("1.4.0", 3, 17, T + DAY), ...toldRuns("1.5.0", 18, 2, T + 2 * DAY)];
    await ingestNativeBatch(s.store, "default", undefined, runs.flatMap(allRecords));
    await refreshDrift(s.store, "default", T + 3 * DAY);
    const drop = await gate(s, "1.4.0");
    expect(pick(drop)).toEqual(["fail", null, "1 SemVer violation in release 1.4.0"]);
    expect(drop.violations.map((f) => [f.kind, f.metric, f.direction, f.verdict, f.severity])).toEqual([["model_behaviour", "self_correction", "worse", "violation", "medium"]]);
    await agreesWithDriftPage(s, drop);
    const named = await gate(s, "1.4.0", { kind: "release", release: "1.3.0" });
    expect(named.violations.map((f) => [f.id, f.sentence])).toEqual(drop.violations.map((f) => [f.id, f.sentence]));
    const rise = await gate(s, "1.5.0");
    expect(pick(rise)).toEqual(["pass", null, "no SemVer violation in release 1.5.0 (1 improvement listed)"]);
    expect(rise.improvements.map((f) => [f.kind, f.direction, f.verdict])).toEqual([["model_behaviour", "better", "improvement"]]);
    await agreesWithDriftPage(s, rise);
    // A document keeps no next steps: the drop cannot be seen from it, and the answer says so.
    const doc = await gate(s, "1.4.0", { kind: "contract", contract: await contract(s, "1.3.0") });
    expect([doc.verdict, doc.violations, doc.unchecked.find((u) => u.check === "self_correction")?.why]).toEqual([
      "pass",
      [],
      "the document keeps no next steps after surfaced errors, so a change in how often the model recovers after a code (model behaviour) is not seen: gate against the release itself for it",
    ]);
  });

  it("undecided: names every tool it could not judge and why, beside the ones it compared", async () => {
    const s = await scenario();
    const tool = (name: string, v: string, day: number) => ({ tool: name, toolVersion: v, day });
    s.ok(20, tool("search", "1.0.0", 0)).ok(20, tool("search", "1.0.1", 1));
    s.ok(5, tool("lookup", "1.0.0", 0)).ok(20, tool("lookup", "1.0.1", 1));
    s.ok(20, tool("book", "1.0.1", 1));
    await s.findings();
    const a = await gate(s, "1.0.1");
    expect(pick(a)).toEqual(["pass", null, "no SemVer violation in release 1.0.1"]);
    expect(a.comparisons.map((c) => c.tool)).toEqual(["search"]);
    expect(a.unjudged).toEqual([
      { tool: "book", calls: 20, reason: "no_predecessor", base: null, baseCalls: null, why: "first release of `book`: nothing earlier to compare with" },
      { tool: "lookup", calls: 20, reason: "too_few_calls", base: "1.0.0", baseCalls: 5, why: "too few calls to judge (at least 20 per release): 5 calls in 1.0.0, 20 calls in 1.0.1" },
    ]);
    const first = await gate(s, "1.0.0");
    expect(pick(first)).toEqual(["undecided", "no_predecessor", "no tool of release 1.0.0 has an earlier release to compare with"]);
    expect(first.unjudged.map((u) => [u.tool, u.reason])).toEqual([["lookup", "no_predecessor"], ["search", "no_predecessor"]]);
  });

  it("undecided: a change for the worse between releases that are not versions is left to a person, never PASS", async () => {
    const s = await scenario();
    s.failing(20, { ...search("2026-11-02", 0), code: "upstream_timeout", retryable: true });
    s.failing(20, { ...search("2026-11-09", 2), code: "upstream_timeout", retryable: false });
    await s.findings();
    const a = await gate(s, "2026-11-09");
    expect(pick(a)).toEqual([
      "undecided",
      "not_semver",
      "1 finding to review in release 2026-11-09 (the most severe high): its releases are not semantic versions, so SemVer cannot judge them",
    ]);
    expect([a.violations, a.otherFindings.map((f) => [f.kind, f.verdict, f.severity])]).toEqual([[], [["repurposed", "not_semver", "high"]]]);
    await agreesWithDriftPage(s, a);
  });

  it("contract: a p90-only retry_after change cannot be seen from a document, and the answer says which checks it could not make", async () => {
    const s = await scenario();
    s.failing(20, { ...search("1.0.0", 0), code: "rate_limited", retryAfterMs: 1000 });
    s.failing(17, { ...search("1.0.1", 2), code: "rate_limited", retryAfterMs: 1000 }).failing(3, { ...search("1.0.1", 2), code: "rate_limited", retryAfterMs: 8000 });
    await s.findings();
    const live = await gate(s, "1.0.1");
    expect(live.violations.map((f) => [f.metric, f.direction])).toEqual([["retry_after", "worse"]]);
    await agreesWithDriftPage(s, live);
    const doc = await gate(s, "1.0.1", { kind: "contract", contract: await contract(s, "1.0.0") });
    expect([doc.verdict, doc.violations, doc.unchecked.map((u) => u.check)]).toEqual(["pass", [], ["retry_after_p90", "rename_told_wording", "self_correction"]]);
  });

  it("contract: a code removed in a patch fails from the document too, and is listed as no longer seen", async () => {
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
});
