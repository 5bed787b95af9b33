import { describe, expect, it } from "vitest";
import { toldShape } from "@/lib/drift/told-shape";
import { isSurfaced, toldRelease } from "@/lib/told/surfaced";

// Told-text shapes reuse the drift engine's masking (lib/drift/told-shape.ts): two occurrences of one
// wording share a shape, two wordings of one code do not.
describe("told-text shapes and what counts as surfaced", () => {
  it("masks numbers, ids, uuids, quoted values and the code itself, so one wording has one shape", () => {
    const a = toldShape('error: seat_unavailable: seat "14C" on BK48213 is held until 2027-03-14T10:00Z (retry in 30s)', "seat_unavailable");
    const b = toldShape("error: seat_unavailable: seat '2A' on BK90001 is held until 2027-04-01T08:30Z (retry in 5s)", "seat_unavailable");
    expect(a).toBe("error: <code>: seat <value> on <id> is held until <time> (retry in <n>)");
    expect(b).toBe(a);
    expect(toldShape("request 3f2c1a9e-8d4b-4c2a-9e1f-0a1b2c3d4e5f failed", null)).toBe("request <id> failed");
  });

  it("keeps two wordings of one code apart", () => {
    const terse = toldShape("error: bad_date: invalid", "bad_date");
    const helpful = toldShape("error: bad_date: dates are YYYY-MM-DD, got 14/03/2027", "bad_date");
    expect(terse).not.toBe(helpful);
  });

  it("counts an error as surfaced when the model received its text", () => {
    expect(isSurfaced("surfaced", "error: x")).toBe(true);
    expect(isSurfaced("delivered", "x: no")).toBe(true);
    expect(isSurfaced("exhausted", "error: x after 3 attempts")).toBe(true);
    expect(isSurfaced(null, "told by a source without decisions")).toBe(true);
    expect(isSurfaced("failed_run", "error: x")).toBe(false);
    expect(isSurfaced("cancelled", "error: cancelled")).toBe(false);
    expect(isSurfaced("surfaced", null)).toBe(false);
  });

  it("counts an error under the agent's release, else the tool's version", () => {
    expect(toldRelease("1.4.0", "3.0.0")).toBe("1.4.0");
    expect(toldRelease(null, "3.0.0")).toBe("3.0.0");
    expect(toldRelease(" ", null)).toBe("");
  });
});
