import { describe, expect, it } from "vitest";
import { resourceSchema } from "../../../lib/contracts";
import { clampResource, hexId } from "../../../lib/runtime";

// The hashes below are pinned: they are what the server stores, so a change to the hash would
// split one service's history in two. Each one is also checked against hexId of the whole value.
describe("clampResource", () => {
  it("leaves a resource that fits unchanged, as a copy", () => {
    const resource = { service: "support-agent", release: "1.4.0", environment: "prod", sdk: { name: "faultline-runtime", version: "0.1.0" } };
    const out = clampResource(resource);
    expect(out).toEqual(resource);
    expect(out).not.toBe(resource);
  });

  it("cuts each field to its own bound: a readable prefix, '~', and a 16-hex hash of the whole value", () => {
    const service = "s".repeat(300);
    const release = "r".repeat(100);
    const out = clampResource({ service, release, environment: "prod" });
    expect(out).toEqual({
      service: `${"s".repeat(183)}~366cc541116736f0`,
      release: `${"r".repeat(47)}~67e7e58540bc3954`,
      environment: "prod",
    });
    expect([out.service!.length, out.release!.length]).toEqual([200, 64]);
    expect([hexId(service, 16), hexId(release, 16)]).toEqual(["366cc541116736f0", "67e7e58540bc3954"]);
    expect(resourceSchema.safeParse(out).success).toBe(true);
  });

  it("values one character over the bound are cut; values at the bound are not", () => {
    expect(clampResource({ service: "x".repeat(200), release: "v".repeat(64) })).toEqual({ service: "x".repeat(200), release: "v".repeat(64) });
    const over = clampResource({ service: "x".repeat(201), release: "v".repeat(65) });
    expect([over.service!.length, over.release!.length]).toEqual([200, 64]);
    expect([over.service!.slice(183, 184), over.release!.slice(47, 48)]).toEqual(["~", "~"]);
  });

  it("two long values that differ only past the cut stay distinct", () => {
    const a = clampResource({ service: `${"s".repeat(250)}a` }).service;
    const b = clampResource({ service: `${"s".repeat(250)}b` }).service;
    expect(a!.slice(0, 184)).toBe(b!.slice(0, 184));
    expect(a).not.toBe(b);
  });

  it("a blank name or an empty version becomes the hash alone; control characters become U+FFFD", () => {
    const out = clampResource({ environment: "   ", service: "svc\nprod", sdk: { name: "n\u0000x", version: "" } });
    expect(out).toEqual({
      environment: "87384657257fba74",
      service: `svc\uFFFDprod~${hexId("svc\nprod", 16)}`,
      sdk: { name: "n\uFFFDx~1f431a41ce7ff5ee", version: "811c9dc51f2be47c" },
    });
    expect(resourceSchema.safeParse(out).success).toBe(true);
  });

  it("never splits a surrogate pair at the cut", () => {
    const service = `${"a".repeat(182)}${"😀".repeat(10)}`; // the cut at 183 falls inside the first emoji
    const out = clampResource({ service }).service!;
    expect(out).toBe(`${"a".repeat(182)}~62e0f9e34463e156`);
    expect(() => encodeURIComponent(out)).not.toThrow(); // throws URIError on a lone surrogate
  });

  it("is idempotent and does not mutate its input", () => {
    const resource = { service: "s".repeat(300), sdk: { name: "n".repeat(250), version: "1" } };
    const snapshot = structuredClone(resource);
    const once = clampResource(resource);
    expect(clampResource(once)).toEqual(once);
    expect(resource).toEqual(snapshot);
    expect(once.sdk).toEqual({ name: `${"n".repeat(183)}~${hexId("n".repeat(250), 16)}`, version: "1" });
  });
});
