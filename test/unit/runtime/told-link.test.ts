import { describe, expect, it } from "vitest";
import type { RunRecord, ToolCallSpanRecord } from "../../../lib/contracts";
import { argsHash } from "../../../lib/contracts/args-hash";
import { ToolFailure, ToolRefusal, otlpBody, toOtlpSpan, type ToolDefinition } from "../../../lib/runtime";
import { expectValidRecords, harness } from "./helpers";

// What the runtime records for "after the model was told" (docs/after-told.md): an arguments hash on
// every span (never the arguments), the surfaced error a call answers, and unanswered tool uses.

const spansOf = (records: readonly { type: string }[]) => records.filter((r): r is ToolCallSpanRecord => r.type === "tool_call_span");
const runOf = (records: readonly { type: string }[]) => records.find((r): r is RunRecord => r.type === "run")!;
const byCall = (records: readonly { type: string }[]) => Object.fromEntries(spansOf(records).map((s) => [`${s.call_id}#${s.attempt}`, { hash: s.args_hash, after: s.after_error }]));

/** A booking tool that refuses a bad date and books a good one. */
const book: ToolDefinition = {
  name: "book",
  execute(args) {
    const { date } = args as { date: string };
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new ToolFailure("book", "bad_date", { message: `not a date: ${date}` });
    return { booking: "BK1" };
  },
};
const cancel: ToolDefinition = { name: "cancel", execute: () => Promise.reject(new ToolRefusal("cancel", "not_cancellable", "non-refundable fare")) };
const refund: ToolDefinition = { name: "refund", execute: () => ({ refunded: true }) };
const search: ToolDefinition = { name: "search", idempotent: true, execute: () => ({ flights: 3 }) };

describe("the runtime links what the model was told to what it did next", () => {
  it("puts the arguments hash, never the arguments, on every attempt of a call", async () => {
    const { sink, runner } = harness([{ ...search, execute: (() => { let n = 0; return () => (n++ === 0 ? Promise.reject(new ToolFailure("search", "upstream_unavailable", { transient: true })) : { flights: 1 }); })() }]);
    const run = runner.startRun({ runId: "run-h" });
    await run.call({ callId: "c1", tool: "search", args: { to: "OSL", from: "ARN", secret: "p@ss-4432" } });
    run.end();
    const spans = spansOf(sink.records);
    expect(spans.map((s) => [s.attempt, s.args_hash])).toEqual([
      [1, argsHash({ from: "ARN", secret: "p@ss-4432", to: "OSL" })],
      [2, argsHash({ from: "ARN", secret: "p@ss-4432", to: "OSL" })],
    ]);
    expect(JSON.stringify(sink.records)).not.toContain("p@ss-4432");
    expect(JSON.stringify(sink.records)).not.toContain("ARN");
    expectValidRecords(sink.records);
  });

  it("links the model's retry of the same tool to the error it answers, with the changed arguments' hash", async () => {
    const { sink, runner } = harness([book, search]);
    const run = runner.startRun({ runId: "run-l" });
    await run.call({ callId: "c1", tool: "book", args: { date: "next friday" } });
    await run.call({ callId: "c2", tool: "book", args: { date: "2027-03-12" } });
    await run.call({ callId: "c3", tool: "search", args: {} });
    run.end();
    expect(byCall(sink.records)).toEqual({
      // null: the run knows the call answers no error (absent would mean "not known").
      "c1#1": { hash: argsHash({ date: "next friday" }), after: null },
      "c2#1": { hash: argsHash({ date: "2027-03-12" }), after: "c1" },
      // The error was answered once: a later call of another tool answers nothing.
      "c3#1": { hash: argsHash({}), after: null },
    });
  });

  it("links the very next call of another tool, but not one after another call started", async () => {
    const { sink, runner } = harness([cancel, refund, search]);
    const run = runner.startRun({ runId: "run-r" });
    await run.call({ callId: "c1", tool: "cancel", args: { booking: "BK1" } });
    await run.call({ callId: "c2", tool: "refund", args: { booking: "BK1" } });
    await run.call({ callId: "c3", tool: "cancel", args: { booking: "BK2" } });
    await run.call({ callId: "c4", tool: "search", args: {} });
    await run.call({ callId: "c5", tool: "refund", args: {} });
    run.end();
    const links = Object.fromEntries(spansOf(sink.records).map((s) => [s.call_id, s.after_error ?? null]));
    expect(links).toEqual({ c1: null, c2: "c1", c3: null, c4: "c3", c5: null });
  });

  it("takes the agent's own afterError over its own rule, and within one turn links only the first call", async () => {
    const { sink, runner } = harness([book, search, refund]);
    const run = runner.startRun({ runId: "run-x" });
    await run.call({ callId: "c1", tool: "book", args: { date: "soon" } });
    await run.callAll([
      { callId: "c2", tool: "search", args: {} },
      { callId: "c3", tool: "refund", args: {} },
    ]);
    await run.call({ callId: "c4", tool: "book", args: { date: "later" } });
    await run.call({ callId: "c5", tool: "refund", args: {}, afterError: "c4" });
    run.end();
    const links = Object.fromEntries(spansOf(sink.records).map((s) => [s.call_id, s.after_error]));
    expect(links).toEqual({ c1: null, c2: "c1", c3: null, c4: null, c5: "c4" });
  });

  it("takes the agent's word that a call answers no error: the error stays open for a later retry", async () => {
    const { sink, runner } = harness([book, search]);
    const run = runner.startRun({ runId: "run-n" });
    await run.call({ callId: "c1", tool: "book", args: { date: "soon" } });
    // The model gave up on the booking and moved on: its next call is its own plan, not an answer.
    await run.call({ callId: "c2", tool: "search", args: {}, afterError: null });
    await run.call({ callId: "c3", tool: "book", args: { date: "2027-01-01" } });
    run.end();
    const links = Object.fromEntries(spansOf(sink.records).map((s) => [s.call_id, s.after_error]));
    expect(links).toEqual({ c1: null, c2: null, c3: "c1" });
    expectValidRecords(sink.records);
  });

  it("counts the tool uses of the model's turns that got no result, and says nothing when turns were not declared", async () => {
    const { sink, runner } = harness([search]);
    const run = runner.startRun({ runId: "run-u" });
    run.modelTurn(["tu_1", "tu_2", "tu_3"]);
    await run.call({ callId: "tu_1", tool: "search", args: {} });
    await run.call({ callId: "tu_3", tool: "nope", args: {} });
    expect(run.unansweredToolUses).toBe(1);
    run.modelTurn(["tu_4"]);
    run.end();
    expect(runOf(sink.records).unanswered_tool_uses).toBe(2);

    const quiet = harness([search]);
    const other = quiet.runner.startRun({ runId: "run-q" });
    await other.call({ callId: "x", tool: "search", args: {} });
    other.end();
    expect(other.unansweredToolUses).toBeUndefined();
    expect("unanswered_tool_uses" in runOf(quiet.sink.records)).toBe(false);
    expectValidRecords([...sink.records, ...quiet.sink.records]);
  });

  it("counts a tool use of a turn whose sibling ended the run as answered: it got its 'never dispatched' result", async () => {
    const { sink, runner } = harness([search], { onToolError: "fail_run", permitted: ["search"] });
    const run = runner.startRun({ runId: "run-f" });
    run.modelTurn(["tu_1", "tu_2", "tu_3"]);
    // tu_1 is refused before dispatch and fails the run at once, before tu_2 and tu_3 start.
    const results = await run.callAll([
      { callId: "tu_1", tool: "refund", args: {} },
      { callId: "tu_2", tool: "search", args: {} },
    ]);
    expect(results.map((r) => r.status)).toEqual(["error", "cancelled"]);
    expect(runOf(sink.records)).toMatchObject({ state: "failed", unanswered_tool_uses: 1 });
  });

  it("exports the hash, the link and the unanswered count over OTLP too", async () => {
    const { sink, runner } = harness([book]);
    const run = runner.startRun({ runId: "run-o" });
    run.modelTurn(["c1", "c2", "c3"]);
    await run.call({ callId: "c1", tool: "book", args: { date: "x" } });
    await run.call({ callId: "c2", tool: "book", args: { date: "2027-01-01" } });
    run.end();
    const body = JSON.parse(otlpBody(sink.records.map((r) => JSON.stringify(toOtlpSpan(r))), undefined, "0.1.0")) as {
      resourceSpans: { scopeSpans: { spans: { attributes: { key: string; value: Record<string, string> }[] }[] }[] }[];
    };
    const attrs = body.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => Object.fromEntries(s.attributes.map((a) => [a.key, Object.values(a.value)[0]])));
    // OTLP attributes cannot be null: "answers no error" travels as an empty value.
    expect(attrs.filter((a) => a["faultline.args_hash"]).map((a) => [a["faultline.call_id"], a["faultline.args_hash"], a["faultline.after_error"]])).toEqual([
      ["c1", argsHash({ date: "x" }), ""],
      ["c2", argsHash({ date: "2027-01-01" }), "c1"],
    ]);
    expect(attrs.find((a) => a["faultline.run_state"])?.["faultline.unanswered_tool_uses"]).toBe("1");
  });
});
