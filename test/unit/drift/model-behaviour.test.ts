import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { getDriftFreshness } from "@/db/drift/get-drift-freshness";
import { listDriftFindings } from "@/db/drift/list-drift-findings";
import { refreshDrift } from "@/db/drift/refresh-drift";
import type { ToldStep } from "@/lib/contracts/told";
import { modelBehaviourFindings, type ToldReleaseCounts } from "@/lib/drift/model-behaviour";
import { ingestNativeBatch } from "@/test/helpers/ingest";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";
import { allRecords, toldRunRecords, type ToldRunSpec } from "@/test/helpers/told-runs";

const counts = (release: string, decided: number, recovered: number, firstSeen = 0): ToldReleaseCounts => ({ tool: "book_flight", code: "bad_date", release, firstSeen, decided, recovered });

describe("model behaviour findings (pure)", () => {
  it("a real drop with enough samples is a finding with the rate before and after", () => {
    const [f, ...rest] = modelBehaviourFindings([counts("1.3.0", 30, 24), counts("1.4.0", 30, 6)]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      kind: "model_behaviour",
      metric: "self_correction",
      direction: "worse",
      severity: "medium",
      verdict: "violation",
      bump: "minor",
      code: "bad_date",
      tool: "book_flight",
      fromRelease: "1.3.0",
      toRelease: "1.4.0",
      beforeCalls: 30,
      afterCalls: 30,
      changes: ["self_correction"],
      before: null,
      after: null,
      selfCorrection: { before: { release: "1.3.0", decided: 30, recovered: 24, rate: 0.8 }, after: { release: "1.4.0", decided: 30, recovered: 6, rate: 0.2 } },
    });
    expect(f!.sentence).toBe(
      "After being told `bad_date` from `book_flight`, the model recovered from 80% of 30 errors in 1.3.0 and from 20% of 30 errors in 1.4.0: " +
        "model behaviour drift in a minor release, a SemVer violation; compare what `bad_date` tells the model in 1.4.0 with 1.3.0 (its wordings on the code page) and restore the wording or prompt that worked.",
    );
  });

  it("is not raised below the minimum sample, however large the drop", () => {
    expect(modelBehaviourFindings([counts("1.3.0", 9, 9), counts("1.4.0", 30, 0)])).toEqual([]);
    expect(modelBehaviourFindings([counts("1.3.0", 30, 30), counts("1.4.0", 9, 0)])).toEqual([]);
  });

  it("lists a rise as an improvement, never a violation", () => {
    const [f, ...rest] = modelBehaviourFindings([counts("1.3.0", 30, 6), counts("1.4.0", 30, 24)]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ kind: "model_behaviour", metric: "self_correction", direction: "better", verdict: "improvement", severity: "info", bump: "minor" });
    expect(f!.sentence).toBe(
      "After being told `bad_date` from `book_flight`, the model recovered from 20% of 30 errors in 1.3.0 and from 80% of 30 errors in 1.4.0: " +
        "model behaviour drift for the better in a minor release, an improvement listed for information; keep what `bad_date` tells the model in 1.4.0 (its wordings on the code page): it helps the model more than 1.3.0's.",
    );
  });

  it("is not raised on a change that is small or not significant", () => {
    expect(modelBehaviourFindings([counts("1.3.0", 200, 120), counts("1.4.0", 200, 80)])).toEqual([]); // 60% → 40%: below 25 points
    expect(modelBehaviourFindings([counts("1.3.0", 10, 6), counts("1.4.0", 10, 3)])).toEqual([]); // 30 points, |z| < 3
  });

  it("skips a release too rare to judge and compares its neighbours; ignores errors without a release", () => {
    const found = modelBehaviourFindings([counts("1.3.0", 30, 27), counts("1.3.1", 3, 0), counts("1.4.0", 30, 3), counts("", 100, 0)]);
    expect(found.map((f) => [f.fromRelease, f.toRelease])).toEqual([["1.3.0", "1.4.0"]]);
  });
});

// Runs sent through native ingest, then the drift refresh the background job runs.
const T = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3 * 86_400_000;

function runs(release: string, recovered: number, gaveUp: number, from: number): ToldRunSpec[] {
  const specs: ToldRunSpec[] = [];
  const next = (i: number): ToldStep => (i < recovered ? "recovered" : "gave_up");
  for (let i = 0; i < recovered + gaveUp; i++) {
    specs.push({ runId: `r-${release}-${i}`, release, tool: "book_flight", code: "bad_date", told: "error: bad_date: invalid date", next: next(i), at: from + i * 60_000 });
  }
  return specs;
}

describe.each(DIALECTS)("model behaviour findings from ingested runs (%s)", (dialect) => {
  let store: Store;
  afterEach(async () => {
    await store?.close();
  });
  const open = async () => {
    store = await openTestStore(dialect);
    await store.run("INSERT INTO projects (id, name, created_at) VALUES ('p', 'P', 0)");
  };
  const behaviour = async () => (await listDriftFindings(store, { project: "p", kind: "model_behaviour" })).findings;

  it("raises the finding on a real drop, with example runs on each side, and lists it under its own kind", async () => {
    await open();
    await ingestNativeBatch(store, "p", undefined, [...runs("1.3.0", 16, 4, T), ...runs("1.4.0", 3, 17, T + 86_400_000)].flatMap(allRecords));
    await refreshDrift(store, "p", T + 2 * 86_400_000);
    const [f, ...rest] = await behaviour();
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ kind: "model_behaviour", fromRelease: "1.3.0", toRelease: "1.4.0", beforeCalls: 20, afterCalls: 20 });
    expect(f!.selfCorrection).toMatchObject({ before: { decided: 20, recovered: 16, rate: 0.8 }, after: { decided: 20, recovered: 3, rate: 0.15 } });
    expect(f!.exampleRuns.before).toEqual(["r-1.3.0-15", "r-1.3.0-14", "r-1.3.0-13"]);
    expect(f!.exampleRuns.after).toEqual(["r-1.4.0-19", "r-1.4.0-18", "r-1.4.0-17"]);
    const all = await listDriftFindings(store, { project: "p" });
    expect(all.totals.byKind).toEqual({ model_behaviour: 1 });
  });

  it("is not raised below the minimum sample nor on a rise", async () => {
    await open();
    await ingestNativeBatch(store, "p", undefined, [...runs("1.3.0", 16, 4, T), ...runs("1.4.0", 0, 9, T + 86_400_000), ...runs("2.0.0", 19, 1, T + 2 * 86_400_000)].flatMap(allRecords));
    await refreshDrift(store, "p", T + 3 * 86_400_000);
    // 1.4.0 drops to 0 % but on 9 decided errors: too few, skipped; 1.3.0 (80 %) → 2.0.0 (95 %) is a rise.
    expect(await behaviour()).toEqual([]);
    expect(await store.all("SELECT release, sum(errors) AS n FROM told_step_counts GROUP BY release ORDER BY release")).toEqual([
      { release: "1.3.0", n: 20 },
      { release: "1.4.0", n: 9 },
      { release: "2.0.0", n: 20 },
    ]);
  });

  it("a run end that alone moves errors to a step makes the findings stale and recomputed", async () => {
    await open();
    const before = runs("1.3.0", 18, 2, T);
    const after = runs("1.4.0", 2, 18, T + 86_400_000);
    const pieces = after.map(toldRunRecords);
    // The 1.4.0 runs' errors and next calls arrive, their ends not yet: the gave-up ones are pending.
    await ingestNativeBatch(store, "p", undefined, [...before.flatMap(allRecords), ...pieces.flatMap((p) => [...p.error, ...p.next])]);
    await refreshDrift(store, "p", T + 2 * 86_400_000);
    expect(await behaviour()).toEqual([]);
    expect((await getDriftFreshness(store, "p")).upToDate).toBe(true);
    // Only run records arrive (no span, no tool error): the told counts change, and so must the findings.
    await ingestNativeBatch(store, "p", undefined, pieces.flatMap((p) => p.end));
    expect((await getDriftFreshness(store, "p")).upToDate).toBe(false);
    expect(await refreshDrift(store, "p", T + 2 * 86_400_000)).toEqual({ spans: 0, errors: 0, findingsRecomputed: true });
    expect((await behaviour()).map((f) => [f.fromRelease, f.toRelease, f.afterCalls])).toEqual([["1.3.0", "1.4.0", 20]]);
    expect((await getDriftFreshness(store, "p")).upToDate).toBe(true);
  });
});
