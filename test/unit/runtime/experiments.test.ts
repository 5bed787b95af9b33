import { describe, expect, it } from "vitest";
import type { ToolErrorRecord } from "../../../lib/contracts";
import type { WordingEntry } from "../../../lib/contracts/wordings";
import {
  ASSIGNMENT_BUCKETS,
  ToolErrorMap,
  ToolFailure,
  ToolRefusal,
  WordingSet,
  assignVariant,
  assignmentBucket,
  defineExperiment,
  fnv1a32,
  permanent,
  type ToolDefinition,
  type WordingSource,
} from "../../../lib/runtime";
import { expectValidRecords, harness } from "./helpers";

const FARE = defineExperiment("fare-wording", [
  { id: "control", text: "fare class no longer sold" },
  { id: "pick-another", text: "pick another fare class from the search_flights results" },
]);

/** A booking tool whose fare class is never sold; the error carries the code-side experiment. */
const book = (experiment: typeof FARE | null = FARE): ToolDefinition => ({
  name: "book_flight",
  execute: () => Promise.reject(new ToolFailure("book_flight", "fare_class_unavailable", { message: "fare class no longer sold", ...(experiment ? { experiment } : {}) })),
});

const errorsOf = (records: readonly { type: string }[]) => records.filter((r): r is ToolErrorRecord => r.type === "tool_error");

async function oneFailure(runId: string, options: Parameters<typeof harness>[1] = {}, tool = book()): Promise<ToolErrorRecord> {
  const { sink, runner } = harness([tool], options);
  const run = runner.startRun({ runId });
  await run.call({ callId: "c1", tool: tool.name, args: {} });
  run.end();
  expectValidRecords(sink.records);
  return errorsOf(sink.records)[0]!;
}

const running = (over: Partial<WordingEntry> = {}): WordingEntry => ({
  code: "fare_class_unavailable", tool: null, experiment: "fare-remote", state: "running",
  variants: [{ id: "a", text: "remote wording A", weight: 50 }, { id: "b", text: "remote wording B", weight: 50 }], ...over,
});

describe("assignment", () => {
  it("hashes with FNV-1a over UTF-8 (the published test values)", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
    expect(fnv1a32("é")).toBe(fnv1a32("\u00e9"));
  });

  it("buckets a run by (experiment, run id) and keeps a run in one variant", () => {
    expect(assignmentBucket("run-1", "fare-wording")).toBe(fnv1a32("fare-wording\nrun-1") % ASSIGNMENT_BUCKETS);
    const first = assignVariant("run-1", "fare-wording", FARE.variants);
    for (let i = 0; i < 5; i++) expect(assignVariant("run-1", "fare-wording", FARE.variants)).toBe(first);
  });

  it("follows the split: 10 000 runs at 20/80 land within three standard deviations of 2 000", () => {
    const variants = [{ id: "a", weight: 20 }, { id: "b", weight: 80 }];
    let a = 0;
    for (let i = 0; i < 10_000; i++) if (assignVariant(`run-${i}`, "split", variants)!.id === "a") a++;
    expect(Math.abs(a - 2_000)).toBeLessThan(3 * Math.sqrt(10_000 * 0.2 * 0.8));
  });

  it("never assigns a zero-weight variant and answers undefined when all are zero", () => {
    const variants = [{ id: "off", weight: 0 }, { id: "on", weight: 100 }];
    for (let i = 0; i < 500; i++) expect(assignVariant(`r${i}`, "x", variants)!.id).toBe("on");
    expect(assignVariant("r", "x", [{ id: "a", weight: 0 }])).toBeUndefined();
  });

  it("refuses experiments that would never run as declared", () => {
    expect(() => defineExperiment("bad id!", FARE.variants)).toThrow(/experiment id/);
    expect(() => defineExperiment("x", [{ id: "a", text: "one" }])).toThrow(/2 to 4 variants/);
    expect(() => defineExperiment("x", [{ id: "a", text: "one" }, { id: "a", text: "two" }])).toThrow(/repeats variant a/);
    expect(() => defineExperiment("x", [{ id: "a", text: "one" }, { id: "b", text: " " }])).toThrow(/needs a text/);
    expect(() => defineExperiment("x", [{ id: "a", text: "one", weight: 0 }, { id: "b", text: "two", weight: 0 }])).toThrow(/every weight is 0/);
  });
});

describe("the run loop tells the assigned wording and records the arm", () => {
  it("replaces the message, records experiment and variant, and changes nothing else", async () => {
    const plain = await oneFailure("run-7", {}, book(null));
    const tried = await oneFailure("run-7");
    const variant = assignVariant("run-7", "fare-wording", FARE.variants)!;
    expect(tried).toMatchObject({ experiment: "fare-wording", variant: variant.id });
    expect(tried.told).toBe(`error: fare_class_unavailable: ${variant.text}\nretryable: no (repeating the same call will not help)`);
    const { told: _a, experiment: _e, variant: _v, id: _i, ...rest } = tried;
    const { told: _b, id: _j, ...plainRest } = plain;
    expect(rest).toEqual(plainRest);
    expect(plain).not.toHaveProperty("experiment");
  });

  it("tells one run the same wording on every call, and both wordings across runs", async () => {
    const { sink, runner } = harness([book()]);
    for (let r = 0; r < 40; r++) {
      const run = runner.startRun({ runId: `run-${r}` });
      for (let c = 0; c < 3; c++) await run.call({ callId: `c${c}`, tool: "book_flight", args: {} });
      run.end();
    }
    const byRun = new Map<string, Set<string>>();
    for (const e of errorsOf(sink.records)) byRun.set(e.run_id, (byRun.get(e.run_id) ?? new Set()).add(`${e.variant}|${e.told}`));
    expect([...byRun.values()].every((s) => s.size === 1)).toBe(true);
    expect(new Set(errorsOf(sink.records).map((e) => e.variant))).toEqual(new Set(["control", "pick-another"]));
  });

  it("runs an experiment declared on an error-map rule, refusals included", async () => {
    class SoldOut extends Error {}
    const map = new ToolErrorMap([[SoldOut, permanent("fare_class_unavailable", { experiment: FARE })]]);
    const tool: ToolDefinition = { name: "book_flight", errorMap: map, execute: () => Promise.reject(new SoldOut("sold out")) };
    const e = await oneFailure("run-9", {}, tool);
    expect(e.experiment).toBe("fare-wording");
    expect(e.told).toContain(FARE.variants.find((v) => v.id === e.variant)!.text);
    const refusing: ToolDefinition = { name: "cancel", execute: () => Promise.reject(new ToolRefusal("cancel", "not_cancellable", "non-refundable", { experiment: defineExperiment("refusal-wording", [{ id: "x", text: "X", weight: 1 }, { id: "y", text: "Y", weight: 0 }]) })) };
    const r = await oneFailure("run-9", {}, refusing);
    expect(r).toMatchObject({ experiment: "refusal-wording", variant: "x", told: "not_cancellable: X", decision: "delivered", error_class: "ToolRefusal" });
  });

  it("records no experiment when the run fails at the error and nobody reads the text", async () => {
    const e = await oneFailure("run-7", { onToolError: "fail_run" });
    expect(e.told).toBeNull();
    expect(e).not.toHaveProperty("experiment");
  });

  it("prefers Faultline's entry to the code's, records a promoted winner as no experiment, and scrubs remote text", async () => {
    const remote = await oneFailure("run-7", { wordings: new WordingSet([running()]) });
    expect(remote.experiment).toBe("fare-remote");
    expect(remote.told).toContain(`remote wording ${remote.variant!.toUpperCase()}`);
    const promoted = new WordingSet([running({ state: "promoted", variants: [{ id: "b", text: "see https://bob:hunter22@x.example/y", weight: 100 }] })]);
    const won = await oneFailure("run-7", { wordings: promoted });
    expect(won).not.toHaveProperty("experiment");
    expect(won.told).toBe("error: fare_class_unavailable: see https://bob:[redacted:url_password]@x.example/y\nretryable: no (repeating the same call will not help)");
  });

  it("uses a tool's own entry before the code-wide one", async () => {
    const set = new WordingSet([running({ experiment: "everywhere" }), running({ tool: "book_flight", experiment: "this-tool" })]);
    expect((await oneFailure("run-1", { wordings: set })).experiment).toBe("this-tool");
  });

  it("falls back to the local experiment when the wording source throws", async () => {
    const broken: WordingSource = { current: () => { throw new Error("boom"); } };
    const e = await oneFailure("run-7", { wordings: broken });
    expect(e.experiment).toBe("fare-wording");
  });
});
