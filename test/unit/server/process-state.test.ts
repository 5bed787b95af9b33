import { describe, expect, it, vi } from "vitest";

// Next loads a server module once per bundle; vitest's module reset gives the same effect: each
// import after a reset is a fresh copy of the module, with its own module-level variables.
async function freshCopy() {
  vi.resetModules();
  return import("@/server/process-state");
}

describe("process state", () => {
  it("is one object per name across copies of the module, made once", async () => {
    const a = await freshCopy();
    const b = await freshCopy();
    expect(a).not.toBe(b);
    let made = 0;
    const init = () => ({ made: ++made, hits: 0 });
    const first = a.processState("drift-folds", init);
    first.hits++;
    const second = b.processState("drift-folds", init);
    expect(second).toBe(first);
    expect(second).toEqual({ made: 1, hits: 1 });
    expect(made).toBe(1);
  });

  it("keeps names apart", async () => {
    const { processState } = await freshCopy();
    expect(processState("event-loop", () => ({ name: "event-loop" }))).not.toBe(processState("ingest-slots", () => ({ name: "ingest-slots" })));
  });

  it("shares the configuration between copies of server/config.ts", async () => {
    vi.resetModules();
    const one = await import("@/server/config");
    vi.resetModules();
    const two = await import("@/server/config");
    expect(one.config).not.toBe(two.config);
    expect(two.config()).toBe(one.config());
  });
});
