import { describe, expect, it } from "vitest";
import { applyFailures, decide, latestRelease, openTriage, releaseAfter, stateAt, type FailureSighting, type Triage } from "@/lib/triage/issue-state";

const rel = (release: string, firstSeen: number) => ({ release, firstSeen });
const semver = [rel("1.4.0", 100), rel("1.4.1", 200)];

function sighting(failures: { release: string; at: number }[], extra: Partial<FailureSighting> = {}): FailureSighting {
  return { failures, totalFailures: 10, worstHour: 1, releases: semver, ...extra };
}

describe("release order", () => {
  it("orders by SemVer when every label parses, whatever the sighting order", () => {
    const releases = [rel("1.10.0", 100), rel("1.9.0", 200)];
    expect(releaseAfter("1.10.0", "1.9.0", releases, 0)).toBe(true);
    expect(latestRelease(releases)).toBe("1.10.0");
  });
  it("orders CalVer labels as versions", () => {
    expect(releaseAfter("2026.12.1", "2026.11.3", [rel("2026.12.1", 1), rel("2026.11.3", 2)], 0)).toBe(true);
  });
  it("falls back to first sighting when a label does not parse", () => {
    const releases = [rel("blue", 100), rel("green", 50)];
    expect(releaseAfter("blue", "green", releases, 0)).toBe(true);
    expect(latestRelease(releases)).toBe("blue");
    expect(latestRelease([])).toBeNull();
  });
  it("places a label never seen at the given instant", () => {
    expect(releaseAfter("new", "blue", [rel("blue", 100)], 150)).toBe(true);
    expect(releaseAfter("new", "blue", [rel("blue", 100)], 50)).toBe(false);
  });
  it("a release is never after itself", () => {
    expect(releaseAfter("1.4.0", "1.4.0", semver, 0)).toBe(false);
  });
});

describe("resolved in the next release", () => {
  const resolved = decide({ state: "resolved", mode: "next_release" }, { now: 1000, totalFailures: 5, worstHour: 2, releases: semver });
  it("pins the latest release seen", () => {
    expect(resolved).toEqual({ state: "resolved", resolveMode: "next_release", resolveRelease: "1.4.1", resolvedAt: 1000, ignoreMode: null, ignoreLimit: null });
  });
  it("stays resolved on a failure in the same release, even later in time", () => {
    expect(applyFailures(resolved, sighting([{ release: "1.4.1", at: 5000 }]))).toEqual({ triage: resolved, event: null });
  });
  it("stays resolved on a failure in an earlier release", () => {
    expect(applyFailures(resolved, sighting([{ release: "1.4.0", at: 5000 }])).triage.state).toBe("resolved");
  });
  it("regresses on a failure in a later release", () => {
    const next = applyFailures(resolved, sighting([{ release: "1.4.1", at: 5000 }, { release: "1.5.0", at: 5001 }], { releases: [...semver, rel("1.5.0", 5001)] }));
    expect(next).toEqual({
      triage: { ...resolved, state: "regressed" },
      event: { kind: "regressed", detail: "failed again in 1.5.0 after it was resolved in the release after 1.4.1" },
    });
  });
  it("regresses on a later release in first-seen order", () => {
    const weeks = [rel("2026-W45", 100)];
    const t = decide({ state: "resolved", mode: "next_release" }, { now: 200, totalFailures: 1, worstHour: 1, releases: weeks });
    expect(t.resolveRelease).toBe("2026-W45");
    const next = applyFailures(t, sighting([{ release: "2026-W46", at: 300 }], { releases: [...weeks, rel("2026-W46", 300)] }));
    expect(next.triage.state).toBe("regressed");
  });
  it("is resolved now when no release was ever seen", () => {
    expect(decide({ state: "resolved", mode: "next_release" }, { now: 7, totalFailures: 0, worstHour: 0, releases: [] })).toMatchObject({ resolveMode: "now", resolveRelease: null, resolvedAt: 7 });
  });
});

describe("resolved now and in a named release", () => {
  it("now: a failure that started after the resolution regresses, an older one arriving late does not", () => {
    const t = decide({ state: "resolved", mode: "now" }, { now: 1000, totalFailures: 1, worstHour: 1, releases: semver });
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 999 }])).triage.state).toBe("resolved");
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 1001 }])).event).toEqual({ kind: "regressed", detail: "failed again in 1.4.1 after it was resolved without a release" });
  });
  it("in release X: failures before X keep it resolved, in X or later regress", () => {
    const t = decide({ state: "resolved", mode: "in_release", release: "1.4.1" }, { now: 1000, totalFailures: 1, worstHour: 1, releases: semver });
    expect(applyFailures(t, sighting([{ release: "1.4.0", at: 2000 }])).triage.state).toBe("resolved");
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 2000 }])).triage.state).toBe("regressed");
    expect(applyFailures(t, sighting([{ release: "2.0.0", at: 2000 }], { releases: [...semver, rel("2.0.0", 2000)] })).triage.state).toBe("regressed");
  });
  it("in a release not seen yet: compared by version", () => {
    const t = decide({ state: "resolved", mode: "in_release", release: "1.5.0" }, { now: 1000, totalFailures: 1, worstHour: 1, releases: semver });
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 2000 }])).triage.state).toBe("resolved");
    expect(applyFailures(t, sighting([{ release: "1.5.0", at: 2000 }], { releases: [...semver, rel("1.5.0", 2000)] })).triage.state).toBe("regressed");
  });
  it("a regressed issue stays regressed, an open one stays open", () => {
    const regressed: Triage = { ...openTriage(), state: "regressed" };
    expect(applyFailures(regressed, sighting([{ release: "9.0.0", at: 1 }])).triage).toBe(regressed);
    const open = openTriage();
    expect(applyFailures(open, sighting([{ release: "9.0.0", at: 1 }])).triage).toBe(open);
  });
  it("a batch without failures changes nothing", () => {
    const t = decide({ state: "resolved", mode: "now" }, { now: 0, totalFailures: 0, worstHour: 0, releases: [] });
    expect(applyFailures(t, sighting([]))).toEqual({ triage: t, event: null });
  });
});

describe("ignore until", () => {
  const ctx = { now: 1000, totalFailures: 40, worstHour: 6, releases: semver };
  it("a date: failures before it keep it ignored, one after it opens it; reads as open once passed", () => {
    const t = decide({ state: "ignored", mode: "until_date", until: 5000 }, ctx);
    expect(t).toMatchObject({ state: "ignored", ignoreMode: "until_date", ignoreLimit: 5000 });
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 5000 }])).triage.state).toBe("ignored");
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 5001 }]))).toEqual({ triage: openTriage(), event: { kind: "unignored", detail: "failed after the ignore's end date" } });
    expect(stateAt(t, 4999)).toBe("ignored");
    expect(stateAt(t, 5000)).toBe("open");
  });
  it("N more failures: counted from the total when ignored", () => {
    const t = decide({ state: "ignored", mode: "until_count", failures: 3 }, ctx);
    expect(t.ignoreLimit).toBe(43);
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 1 }], { totalFailures: 42 })).triage.state).toBe("ignored");
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 1 }], { totalFailures: 43 })).event).toEqual({ kind: "unignored", detail: "reached 43 failures" });
  });
  it("gets worse: an hour with more failures than the worst hour when ignored", () => {
    const t = decide({ state: "ignored", mode: "until_worse" }, ctx);
    expect(t.ignoreLimit).toBe(6);
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 1 }], { worstHour: 6 })).triage.state).toBe("ignored");
    expect(applyFailures(t, sighting([{ release: "1.4.1", at: 1 }], { worstHour: 7 })).event).toEqual({ kind: "unignored", detail: "an hour had more than 6 failures" });
  });
  it("reopening clears every condition", () => {
    expect(decide({ state: "open" }, ctx)).toEqual(openTriage());
  });
});
