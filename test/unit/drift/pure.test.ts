import { describe, expect, it } from "vitest";
import { twoProportionZ } from "@/lib/drift/compare";
import { formatDelay, histogramQuantile, quantizeDelay } from "@/lib/drift/delays";
import { isoWeek, releaseKey } from "@/lib/drift/release-key";
import { bumpBetween, orderReleases, parseVersion } from "@/lib/drift/semver";
import { toldShape } from "@/lib/drift/told-shape";
import { severityFor, verdictFor } from "@/lib/drift/verdict";

describe("semver", () => {
  it("parses loose versions and rejects others", () => {
    expect(parseVersion("v1.4")).toEqual({ major: 1, minor: 4, patch: 0, prerelease: [] });
    expect(parseVersion("1.4.0-rc.1+build.7")).toEqual({ major: 1, minor: 4, patch: 0, prerelease: ["rc", "1"] });
    expect(parseVersion("blue")).toBeNull();
    expect(parseVersion("1.4.0.1")).toBeNull();
  });

  it("orders by precedence, pre-releases before their release, numeric parts numerically", () => {
    const items = ["1.10.0", "1.9.0", "1.10.0-rc.2", "1.10.0-rc.10", "1.10.0-alpha", "2.0.0"].map((release, i) => ({ release, firstSeen: i }));
    expect(orderReleases(items)).toEqual({
      order: "semver",
      items: ["1.9.0", "1.10.0-alpha", "1.10.0-rc.2", "1.10.0-rc.10", "1.10.0", "2.0.0"].map((r) => items.find((i) => i.release === r)),
    });
  });

  it("falls back to first sighting when one label does not parse", () => {
    const items = [{ release: "2.0.0", firstSeen: 5 }, { release: "blue", firstSeen: 1 }, { release: "1.0.0", firstSeen: 9 }];
    expect(orderReleases(items).order).toBe("first_seen");
    expect(orderReleases(items).items.map((i) => i.release)).toEqual(["blue", "2.0.0", "1.0.0"]);
  });

  it("names the bump, with 0.x minors and calendar versions handled", () => {
    expect(bumpBetween("1.3.9", "2.0.0")).toBe("major");
    expect(bumpBetween("1.3.9", "1.4.0")).toBe("minor");
    expect(bumpBetween("1.3.0", "1.3.1")).toBe("patch");
    expect(bumpBetween("1.4.0-rc.1", "1.4.0")).toBe("prerelease");
    expect(bumpBetween("0.3.2", "0.4.0")).toBe("pre1_minor");
    expect(bumpBetween("0.3.1", "0.3.2")).toBe("patch");
    expect(bumpBetween("2026.4.0", "2026.5.0")).toBe("not_semver");
    expect(bumpBetween("green", "blue")).toBe("not_semver");
  });
});

describe("verdict and severity", () => {
  it("judges each kind against each bump", () => {
    const bumps = ["major", "minor", "patch", "prerelease", "pre1_minor", "not_semver"] as const;
    const kinds = ["repurposed", "behaviour", "removed", "added", "renamed"] as const;
    expect(Object.fromEntries(kinds.map((k) => [k, bumps.map((b) => verdictFor(k, b))]))).toEqual({
      repurposed: ["allowed", "violation", "violation", "allowed", "allowed", "not_semver"],
      behaviour: ["allowed", "violation", "violation", "allowed", "allowed", "not_semver"],
      removed: ["allowed", "violation", "violation", "allowed", "allowed", "not_semver"],
      added: ["allowed", "allowed", "violation", "allowed", "allowed", "not_semver"],
      renamed: ["allowed", "violation", "violation", "allowed", "allowed", "not_semver"],
    });
    expect(severityFor("behaviour", "violation", true)).toBe("high");
    expect(severityFor("repurposed", "violation", true)).toBe("critical");
  });
});

describe("told shape", () => {
  it("replaces ids, numbers, quoted values, times and the code itself", () => {
    expect(toldShape('booking_not_cancellable: booking bk_4411 for "Ada Lovelace" is non-refundable (fare 129.50)', "booking_not_cancellable")).toBe(
      "<code>: booking <id> for <value> is non-refundable (fare <n>)",
    );
    expect(toldShape("upstream 503 after 3 attempts, retry in 2s; request 9f8e7d6c5b4a3f2e1d0c", "upstream_unavailable")).toBe(
      "upstream <n> after <n> attempts, retry in <n>; request <id>",
    );
    expect(toldShape("order 7c9e6679-7425-40de-944b-e07fc1f90ae7 placed 2026-11-02T09:00:00Z by ana@example.com", null)).toBe(
      "order <id> placed <time> by <email>",
    );
  });
});

describe("delays", () => {
  it("quantises to two significant digits and reads quantiles by nearest rank", () => {
    expect([0, 7, 850, 2345, 29_950, 123_456].map(quantizeDelay)).toEqual([0, 7, 850, 2300, 30_000, 120_000]);
    const h = new Map([[1000, 5], [2000, 4], [60_000, 1]]);
    expect([histogramQuantile(h, 0.5), histogramQuantile(h, 0.9), histogramQuantile(h, 1)]).toEqual([1000, 2000, 60_000]);
    expect(histogramQuantile(new Map(), 0.5)).toBeNull();
    expect([850, 2000, 2100, 90_000, 7_200_000].map(formatDelay)).toEqual(["850 ms", "2 s", "2.1 s", "1.5 min", "2 h"]);
  });
});

describe("release key", () => {
  it("prefers tool_version, then release, then sdk_version, then the ISO week", () => {
    const at = Date.UTC(2026, 10, 2);
    expect(releaseKey("1.2.0", "r", "s", at)).toEqual({ release: "1.2.0", kind: "tool_version" });
    expect(releaseKey(null, "2026.11.3", "0.1.0", at)).toEqual({ release: "2026.11.3", kind: "release" });
    expect(releaseKey("", null, "0.1.0", at)).toEqual({ release: "0.1.0", kind: "sdk_version" });
    expect(releaseKey(null, null, null, at)).toEqual({ release: "2026-W45", kind: "week" });
  });

  it("computes ISO weeks across year boundaries", () => {
    expect(isoWeek(Date.UTC(2026, 0, 1))).toBe("2026-W01");
    expect(isoWeek(Date.UTC(2027, 0, 1))).toBe("2026-W53");
    expect(isoWeek(Date.UTC(2024, 11, 30))).toBe("2025-W01");
  });
});

describe("two-proportion z", () => {
  it("is large for 30/30 vs 0/30 and small for 8/12 vs 4/12", () => {
    expect(Math.abs(twoProportionZ(30, 30, 0, 30))).toBeCloseTo(7.746, 3);
    expect(Math.abs(twoProportionZ(8, 12, 4, 12))).toBeCloseTo(1.633, 3);
    expect(twoProportionZ(0, 0, 1, 1)).toBe(0);
  });
});
