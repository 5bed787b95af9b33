import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { ingestAdkPublished, ingestAdkRunEvents, ingestAdkSpans } from "../../helpers/ingest";
import { DIALECTS, openTestStore } from "../../helpers/stores";
import { SPANS } from "@/test/helpers/spans-read";
import { ensureDefaultProject } from "@/db/keys";

let store: Store;
/** A table's rows in insert order (raw tables' `pk`), or in `order` (runs have no `pk`: by run id). */
const rows = (table: string, where = "1 = 1", order = "pk") =>
  store.all<Record<string, unknown>>(`SELECT * FROM ${table === "tool_call_spans" ? SPANS : table} WHERE ${where} ORDER BY ${order}`);
const pick = (r: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, r[k]]));
const SPAN_KEYS = ["span_id", "run_id", "call_id", "tool", "attempt", "started_at", "ended_at", "outcome", "code", "error_class", "retryable", "backoff_ms", "decision", "permitted", "abandoned", "message", "release", "service", "source"];

describe.each(DIALECTS)("reference-kit ingest (%s)", (dialect) => {
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  // §4.2: a transient failure retried twice, then given up.
  const retried = [
    { kind: "tool_call", name: "book", detail: null, at: 1767225600.0, usage: null },
    { kind: "attempt_failed", name: "book", detail: "attempt 1: book: upstream_unavailable \u2014 connection reset \u2014 retrying in 0.37s", at: 1767225600.2, usage: null },
    { kind: "attempt_failed", name: "book", detail: "attempt 2: book: upstream_unavailable \u2014 connection reset \u2014 retrying in 0.81s", at: 1767225600.8, usage: null },
    { kind: "tool_error", name: "book", detail: "upstream_unavailable: connection reset after 3 attempts", at: 1767225601.7, usage: null },
  ];

  describe("reference-kit run events", () => {
    it("maps the retried-then-given-up example field by field", async () => {
      const result = await ingestAdkRunEvents(store, "default", { run_id: "run_1", agent: "planner", agent_version: "0.4.0", state: "completed" }, retried);
      expect(result).toEqual({ accepted: 4, duplicates: 0, rejected: [] });
      const base = { run_id: "run_1", call_id: "run_1#call@3", tool: "book", release: "0.4.0", service: "planner", permitted: null, abandoned: null, source: "adk_run_event" };
      expect((await rows("tool_call_spans")).map((r) => pick(r, SPAN_KEYS))).toEqual([
        { ...base, span_id: "run_1#1", attempt: 1, started_at: 1767225600200, ended_at: 1767225600200, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", retryable: 1, backoff_ms: 370, decision: "retried", message: "connection reset" },
        { ...base, span_id: "run_1#2", attempt: 2, started_at: 1767225600800, ended_at: 1767225600800, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", retryable: 1, backoff_ms: 810, decision: "retried", message: "connection reset" },
        // The third attempt is the closing event; a code that was retried is a transient ToolFailure.
        // Why the loop stopped (attempts, retry_after cap, deadline, budget) the events do not say.
        { ...base, span_id: "run_1#3", attempt: 3, started_at: 1767225601700, ended_at: 1767225601700, outcome: "failed", code: "upstream_unavailable", error_class: "ToolFailure", retryable: 1, backoff_ms: null, decision: null, message: "upstream_unavailable: connection reset after 3 attempts" },
      ]);
      expect((await rows("tool_call_spans")).map((r) => r.derived)).toEqual(["decision,error_class,retryable", "decision,error_class,retryable", "attempt,error_class,retryable"]);
      expect((await rows("tool_errors")).map((r) => pick(r, ["event_id", "call_id", "tool", "code", "error_class", "retryable", "attempts", "decision", "told", "derived", "occurred_at"]))).toEqual([
        { event_id: "run_1#3", call_id: "run_1#call@3", tool: "book", code: "upstream_unavailable", error_class: "ToolFailure", retryable: 1, attempts: 3, decision: null, told: null, derived: "error_class,retryable", occurred_at: 1767225601700 },
      ]);
      expect((await rows("runs", "1 = 1", "run_id")).map((r) => pick(r, ["run_id", "agent", "release", "state", "started_at", "ended_at", "source"]))).toEqual([
        { run_id: "run_1", agent: "planner", release: "0.4.0", state: "completed", started_at: 1767225600000, ended_at: 1767225601700, source: "adk_run_event" },
      ]);
    });

    it("stores the run with agent and start unknown when the batch does not give them, and merges the agent in later", async () => {
      const lone = [{ kind: "context_degraded", name: null, detail: null, at: null, usage: null }];
      expect(await ingestAdkRunEvents(store, "default", { run_id: "run_5", state: "failed" }, lone)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await ingestAdkRunEvents(store, "default", { run_id: "run_6", state: "completed" }, retried)).toEqual({ accepted: 4, duplicates: 0, rejected: [] });
      const RUN_KEYS = ["run_id", "record_id", "agent", "release", "service", "state", "started_at", "ended_at", "source"];
      expect((await rows("runs", "1 = 1", "run_id")).map((r) => pick(r, RUN_KEYS))).toEqual([
        { run_id: "run_5", record_id: "run_5#events@1", agent: null, release: null, service: null, state: "failed", started_at: null, ended_at: null, source: "adk_run_event" },
        { run_id: "run_6", record_id: "run_6#events@4", agent: null, release: null, service: null, state: "completed", started_at: 1767225600000, ended_at: 1767225601700, source: "adk_run_event" },
      ]);
      // The kit's run_started, published later, fills in the agent; the events' earlier start and the end stay.
      await ingestAdkPublished(store, "default", undefined, [
        { event_id: "S6", type: "run_started", schema_version: 1, occurred_at: 1767225600.5, tenant: "acme", run_id: "run_6", attributes: { run_id: "run_6", agent: "planner" } },
      ]);
      expect((await rows("runs", "run_id = 'run_6'", "run_id")).map((r) => pick(r, ["agent", "state", "started_at", "ended_at"]))).toEqual([
        { agent: "planner", state: "completed", started_at: 1767225600000, ended_at: 1767225601700 },
      ]);
      // Without a state there is nothing to store a run record with: the events are stored, no run is made up.
      await ingestAdkRunEvents(store, "default", { run_id: "run_8", agent: "planner" }, retried);
      expect(await rows("runs", "run_id = 'run_8'", "run_id")).toEqual([]);
    });

    it("stores a re-sent list once", async () => {
      await ingestAdkRunEvents(store, "default", { run_id: "run_1" }, retried);
      expect(await ingestAdkRunEvents(store, "default", { run_id: "run_1" }, retried)).toEqual({ accepted: 4, duplicates: 3, rejected: [] });
      expect((await rows("tool_call_spans")).length).toBe(3);
    });

    it("keeps declined (the tool said no) and refused (the loop said no) apart", async () => {
      await ingestAdkRunEvents(store, "default", { run_id: "run_2" }, [
        { kind: "tool_refused", name: "cancel", detail: "booking_not_cancellable: This fare is non-refundable.", at: 1767225602.1, usage: null },
        { kind: "tool_refused", name: "wipe_disk", detail: null, at: 1767225603, usage: null },
        { kind: "tool_refused", name: "pay", detail: "approval_denied: ", at: 1767225604, usage: null },
      ]);
      expect((await rows("tool_call_spans")).map((r) => [r.tool, r.outcome, r.code, r.error_class, r.retryable, r.decision, r.message])).toEqual([
        ["cancel", "declined", "booking_not_cancellable", "ToolRefusal", 0, "delivered", "This fare is non-refundable."],
        // The loop refused the call itself (off the allowlist): never retried, so not retryable.
        ["wipe_disk", "refused", null, null, 0, null, null],
        ["pay", "declined", "approval_denied", "ToolRefusal", 0, "delivered", null],
      ]);
      expect((await rows("tool_errors")).map((r) => [r.tool, r.code, r.decision, r.told])).toEqual([
        ["cancel", "booking_not_cancellable", "delivered", "booking_not_cancellable: This fare is non-refundable."],
        ["pay", "approval_denied", "delivered", "approval_denied: "],
      ]);
      expect((await rows("tool_errors")).map((r) => [r.attempts, r.derived])).toEqual([
        [1, "decision,error_class,retryable,attempts"],
        [1, "decision,error_class,retryable,attempts"],
      ]);
    });

    it("keeps untyped and fixed-sentence details as text, and model retries out of tool attempts", async () => {
      const r = await ingestAdkRunEvents(store, "default", { run_id: "run_3" }, [
        { kind: "attempt_failed", name: "claude", detail: "attempt 1: RateLimitError: slow \u2014 retrying in 1.00s", at: 1767225600, usage: { input_tokens: 3 } },
        { kind: "tool_error", name: "lookup", detail: "'lookup' is not in planner's allowlist, so it was not called", at: 1767225601, usage: null },
        { kind: "tool_error", name: "fetch", detail: "stopped before it returned; declared idempotent, so safe to retry", at: 1767225602, usage: null },
        { kind: "tool_error", name: "book", detail: "never dispatched: the run was failed by a sibling", at: 1767225603, usage: null },
        { kind: "tool_indeterminate", name: "pay", detail: "stopped after dispatch; whether its effect landed cannot be known", at: 1767225604, usage: null },
        { kind: "context_degraded", name: null, detail: "later kind", at: 1767225605, usage: null },
        { kind: "tool_result", name: "search", detail: null, at: 1767225606, usage: null },
      ]);
      expect(r).toEqual({ accepted: 7, duplicates: 0, rejected: [] });
      // Single-attempt calls: the closing event is attempt 1; a call never dispatched made none.
      expect((await rows("tool_call_spans")).map((x) => [x.tool, x.outcome, x.code, x.attempt, x.message])).toEqual([
        ["lookup", "failed", null, 1, "'lookup' is not in planner's allowlist, so it was not called"],
        ["fetch", "cancelled", null, 1, "stopped before it returned; declared idempotent, so safe to retry"],
        ["pay", null, null, 1, "stopped after dispatch; whether its effect landed cannot be known"],
        ["search", "ok", null, 1, null],
      ]);
      expect((await rows("tool_errors")).map((x) => [x.tool, x.code, x.error_class, x.retryable, x.attempts, x.decision, x.derived])).toEqual([
        ["lookup", null, "ToolNotPermittedError", 0, 1, "surfaced", "decision,error_class,retryable,attempts"],
        ["fetch", null, null, null, 1, "cancelled", "decision,attempts"],
        ["book", null, null, null, 0, "cancelled", "decision,attempts"],
      ]);
    });

    it("derives failed_run when the run's terminal detail names the tool, and a single attempt for an unretried call", async () => {
      const r = await ingestAdkRunEvents(store, "default", { run_id: "run_8", agent: "planner", state: "failed" }, [
        { kind: "tool_call", name: "book", detail: null, at: 1767225600, usage: null },
        { kind: "tool_error", name: "book", detail: "upstream_broken: supplier said 500", at: 1767225601, usage: null },
        { kind: "compensation_required", name: "book", detail: null, at: 1767225601.5, usage: null },
        { kind: "terminated", name: null, detail: "tool 'book' failed: upstream_broken: supplier said 500", at: 1767225602, usage: null },
      ]);
      expect(r).toEqual({ accepted: 4, duplicates: 0, rejected: [] });
      expect((await rows("tool_call_spans")).map((x) => pick(x, ["span_id", "attempt", "outcome", "code", "error_class", "retryable", "decision", "derived"]))).toEqual([
        { span_id: "run_8#1", attempt: 1, outcome: "failed", code: "upstream_broken", error_class: null, retryable: null, decision: "failed_run", derived: "attempt,decision" },
      ]);
      // Class and retryable of a typed error nobody retried are not in the events: they stay unknown.
      expect((await rows("tool_errors")).map((x) => pick(x, ["event_id", "code", "error_class", "retryable", "attempts", "decision", "told", "derived"]))).toEqual([
        { event_id: "run_8#1", code: "upstream_broken", error_class: null, retryable: null, attempts: 1, decision: "failed_run", told: null, derived: "decision,attempts" },
      ]);
      // The same failure surfaced to the model (no terminal detail naming the tool) keeps its decision unknown.
      await ingestAdkRunEvents(store, "default", { run_id: "run_9", state: "completed" }, [
        { kind: "tool_error", name: "book", detail: "upstream_broken: supplier said 500", at: 1767225601, usage: null },
      ]);
      expect((await rows("tool_errors", "run_id = 'run_9'")).map((x) => [x.attempts, x.decision, x.derived])).toEqual([[1, null, "attempts"]]);
    });

    it("rejects events alone: a tool event without a time, a non-object", async () => {
      const r = await ingestAdkRunEvents(store, "default", { run_id: "run_4" }, [
        { kind: "tool_error", name: "book", detail: "x", at: null, usage: null },
        7,
        { kind: "tool_result", name: "book", detail: null, at: 1767225600, usage: null },
        { kind: "tool_result", name: "book", at: 17672256000 },
      ]);
      expect(r.accepted).toBe(1);
      expect(r.rejected.map((x) => [x.index, x.code])).toEqual([[0, "invalid_record"], [1, "not_an_object"], [3, "invalid_record"]]);
      expect(r.rejected[2]!.message).toContain("Unix seconds");
    });
  });

  const envelope = (over: Record<string, unknown>) => ({
    event_id: "1KDVDNA7T7AFGR8EMX2VTC7R2", type: "tool_call_requested", schema_version: 1, occurred_at: 1767225600.25, tenant: "acme", user: "",
    run_id: "run_1", trace_id: "run_1", span_id: "", correlation_id: "corr-42", causation_id: "", replay_id: "", attributes: {}, ...over,
  });

  describe("reference-kit published events", () => {
    it("maps §4.4's examples: no code on tool_call_completed, class name as class, 25-char ids", async () => {
      const r = await ingestAdkPublished(store, "default", { release: "2026.11.3" }, [
        envelope({ attributes: { run_id: "run_1", tool: "book", tool_call_id: "call_book", attempt: "1" } }),
        envelope({ event_id: "1KDVDNAW4J72E0YJV7MQRWTGM", type: "tool_call_completed", occurred_at: 1767225600.9, causation_id: "1KDVDNA7T7AFGR8EMX2VTC7R2", attributes: { run_id: "run_1", tool: "book", tool_call_id: "call_book", state: "failed", duration_ms: "0", error_code: "ToolFailure" } }),
        envelope({ event_id: "1KDVDNAW4J72E0YJV7MQRWTG2", type: "tool_call_completed", occurred_at: 1767225601, attributes: { run_id: "run_1", tool: "cancel", tool_call_id: "call_cancel", state: "failed", duration_ms: "250", error_code: "ToolRefusal" } }),
        envelope({ event_id: "1KDVDNAW4J72E0YJV7MQRWTG3", type: "tool_call_completed", occurred_at: 1767225601, attributes: { run_id: "run_1", tool: "wipe", tool_call_id: "call_wipe", state: "failed", error_code: "ToolRefused" } }),
        envelope({ event_id: "1KDVDNAW4J72E0YJV7MQRWTG4", type: "tool_call_completed", occurred_at: 1767225601, attributes: { run_id: "run_1", tool: "pay", tool_call_id: "call_pay", state: "abandoned" } }),
        envelope({ event_id: "1KDVDNAW4J72E0YJV7MQRWTG5", type: "tool_call_completed", occurred_at: 1767225601, attributes: { run_id: "run_1", tool: "get", tool_call_id: "call_get", state: "failed", error_code: "RuntimeError" } }),
      ]);
      expect(r).toEqual({ accepted: 6, duplicates: 0, rejected: [] });
      expect((await rows("tool_call_spans")).map((x) => pick(x, ["span_id", "run_id", "call_id", "tool", "attempt", "started_at", "ended_at", "outcome", "code", "error_class", "retryable", "message", "release", "trace_id"]))).toEqual([
        { span_id: "1KDVDNAW4J72E0YJV7MQRWTGM", run_id: "run_1", call_id: "call_book", tool: "book", attempt: null, started_at: 1767225600900, ended_at: 1767225600900, outcome: "failed", code: null, error_class: "ToolFailure", retryable: null, message: null, release: "2026.11.3", trace_id: "run_1" },
        { span_id: "1KDVDNAW4J72E0YJV7MQRWTG2", run_id: "run_1", call_id: "call_cancel", tool: "cancel", attempt: null, started_at: 1767225600750, ended_at: 1767225601000, outcome: "declined", code: null, error_class: "ToolRefusal", retryable: null, message: null, release: "2026.11.3", trace_id: "run_1" },
        { span_id: "1KDVDNAW4J72E0YJV7MQRWTG3", run_id: "run_1", call_id: "call_wipe", tool: "wipe", attempt: null, started_at: 1767225601000, ended_at: 1767225601000, outcome: "refused", code: null, error_class: null, retryable: null, message: "ToolRefused", release: "2026.11.3", trace_id: "run_1" },
        { span_id: "1KDVDNAW4J72E0YJV7MQRWTG4", run_id: "run_1", call_id: "call_pay", tool: "pay", attempt: null, started_at: 1767225601000, ended_at: 1767225601000, outcome: null, code: null, error_class: null, retryable: null, message: "state: abandoned", release: "2026.11.3", trace_id: "run_1" },
        { span_id: "1KDVDNAW4J72E0YJV7MQRWTG5", run_id: "run_1", call_id: "call_get", tool: "get", attempt: null, started_at: 1767225601000, ended_at: 1767225601000, outcome: "failed", code: null, error_class: null, retryable: null, message: "RuntimeError", release: "2026.11.3", trace_id: "run_1" },
      ]);
    });

    it("stores runs from run_started, merges run ends beside it, and stores a lone run end with agent and start unknown", async () => {
      const r = await ingestAdkPublished(store, "default", undefined, [
        envelope({ event_id: "A0000000000000000000000001", type: "run_started", attributes: { run_id: "run_1", agent: "planner", model: "claude-sonnet-5" } }),
        envelope({ event_id: "A0000000000000000000000002", type: "run_failed", occurred_at: 1767225601.1, user: "ada", attributes: { run_id: "run_1", error_code: "failed", attempt: "1" } }),
        envelope({ event_id: "A0000000000000000000000003", type: "run_completed", run_id: "run_9", attributes: { run_id: "run_9", input_tokens: "31" } }),
      ]);
      expect(r).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
      expect((await rows("runs", "1 = 1", "run_id")).map((x) => pick(x, ["run_id", "record_id", "agent", "state", "started_at", "ended_at", "error", "source"]))).toEqual([
        { run_id: "run_1", record_id: "A0000000000000000000000002", agent: "planner", state: "failed", started_at: 1767225600250, ended_at: 1767225601100, error: "failed", source: "adk_published" },
        { run_id: "run_9", record_id: "A0000000000000000000000003", agent: null, state: "completed", started_at: null, ended_at: 1767225600250, error: null, source: "adk_published" },
      ]);
      // The lone end orders the runs list at its end time (the latest the run can have started).
      expect((await rows("run_stats", "run_id = 'run_9'", "run_id")).map((x) => pick(x, ["attempts", "first_started_at", "last_ended_at"]))).toEqual([
        { attempts: 0, first_started_at: 1767225600250, last_ended_at: 1767225600250 },
      ]);
    });

    it("merges a run end with its run_started sent in a later request, and a replay of either is a duplicate", async () => {
      const end = envelope({ event_id: "C2", type: "run_cancelled", run_id: "run_7", occurred_at: 1767225609, attributes: { run_id: "run_7", reason_code: "user_cancelled" } });
      const start = envelope({ event_id: "C1", type: "run_started", run_id: "run_7", occurred_at: 1767225602, attributes: { run_id: "run_7", agent: "planner", agent_version: "0.4.0" } });
      expect(await ingestAdkPublished(store, "default", undefined, [end])).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await ingestAdkPublished(store, "default", undefined, [start])).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await ingestAdkPublished(store, "default", undefined, [start])).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
      expect((await rows("runs", "1 = 1", "run_id")).map((x) => pick(x, ["run_id", "agent", "release", "state", "started_at", "ended_at", "error"]))).toEqual([
        { run_id: "run_7", agent: "planner", release: "0.4.0", state: "cancelled", started_at: 1767225602000, ended_at: 1767225609000, error: "user_cancelled" },
      ]);
      expect((await rows("run_stats", "1 = 1", "run_id")).map((x) => pick(x, ["run_id", "first_started_at", "last_ended_at"]))).toEqual([
        { run_id: "run_7", first_started_at: 1767225602000, last_ended_at: 1767225609000 },
      ]);
    });

    it("uses the raw envelope run id over a pseudonymised attribute, rejects unknown types and too-new versions", async () => {
      const r = await ingestAdkPublished(store, "default", undefined, [
        envelope({ event_id: "B1", type: "tool_call_completed", run_id: "AB1234567", attributes: { run_id: "[passport:anon:0123456789abcdef]", tool: "t", tool_call_id: "c", state: "ok" } }),
        envelope({ event_id: "B2", type: "tool_error" }),
        envelope({ event_id: "B3", type: "tool_call_completed", schema_version: 2, attributes: { tool: "t", tool_call_id: "c", state: "ok" } }),
        envelope({ event_id: "B4", type: "tool_call_completed", attributes: { run_id: "r", tool: "t", state: "ok" } }),
        envelope({ event_id: "B5", occurred_at: "2026-01-01" }),
      ]);
      expect(r.accepted).toBe(1);
      expect(r.rejected.map((x) => [x.index, x.id, x.code])).toEqual([[1, "B2", "unknown_type"], [2, "B3", "invalid_record"], [3, "B4", "invalid_record"], [4, "B5", "invalid_record"]]);
      expect(r.rejected[2]!.message).toBe("tool_call_completed needs tool_call_id");
      expect((await rows("tool_call_spans")).map((x) => [x.run_id, x.outcome])).toEqual([["AB1234567", "ok"]]);
    });
  });

  describe("reference-kit ToolCallSpan records", () => {
    it("maps outcomes (error → failed; refused and declined apart); attempt unknown without a call id", async () => {
      const r = await ingestAdkSpans(store, "default", { run_id: "run_1", resource: { release: "0.9.0" } }, [
        { id: "s1", at: 1767225600.5, tool: "cancel", agent: "planner", permitted: true, outcome: "declined", duration_seconds: 0.0, failure: "ToolRefusal", code: "booking_not_cancellable", abandoned: false },
        { id: "s2", at: 1767225601, tool: "book", agent: "planner", outcome: "error", duration_seconds: 0.25, failure: "ToolFailure", code: "upstream_broken" },
        { id: "s3", at: 1767225602, tool: "wipe", agent: "planner", permitted: false, outcome: "refused" },
        { id: "s4", at: 1767225603, tool: "slow", outcome: "timed_out", duration_seconds: 2, failure: "ToolTimedOutError", abandoned: true },
        { id: "s5", at: 1767225604, tool: "http", outcome: "error", failure: "HTTPError", code: 409, run_id: "run_2", call_id: "toolu_9" },
        { id: "s6", at: 1767225605, tool: "x", outcome: "exploded" },
      ]);
      expect(r.accepted).toBe(5);
      expect(r.rejected.map((x) => [x.index, x.id, x.code])).toEqual([[5, "s6", "invalid_record"]]);
      expect((await rows("tool_call_spans")).map((x) => pick(x, ["span_id", "run_id", "call_id", "tool", "attempt", "started_at", "ended_at", "outcome", "code", "error_class", "permitted", "abandoned", "message", "service", "release"]))).toEqual([
        { span_id: "s1", run_id: "run_1", call_id: "s1", tool: "cancel", attempt: null, started_at: 1767225600500, ended_at: 1767225600500, outcome: "declined", code: "booking_not_cancellable", error_class: "ToolRefusal", permitted: 1, abandoned: 0, message: null, service: "planner", release: "0.9.0" },
        { span_id: "s2", run_id: "run_1", call_id: "s2", tool: "book", attempt: null, started_at: 1767225600750, ended_at: 1767225601000, outcome: "failed", code: "upstream_broken", error_class: "ToolFailure", permitted: 1, abandoned: 0, message: null, service: "planner", release: "0.9.0" },
        { span_id: "s3", run_id: "run_1", call_id: "s3", tool: "wipe", attempt: null, started_at: 1767225602000, ended_at: 1767225602000, outcome: "refused", code: null, error_class: null, permitted: 0, abandoned: 0, message: null, service: "planner", release: "0.9.0" },
        { span_id: "s4", run_id: "run_1", call_id: "s4", tool: "slow", attempt: null, started_at: 1767225601000, ended_at: 1767225603000, outcome: "timed_out", code: null, error_class: "ToolTimedOutError", permitted: 1, abandoned: 1, message: null, service: null, release: "0.9.0" },
        { span_id: "s5", run_id: "run_2", call_id: "toolu_9", tool: "http", attempt: 1, started_at: 1767225604000, ended_at: 1767225604000, outcome: "failed", code: "409", error_class: null, permitted: 1, abandoned: 0, message: "HTTPError", service: null, release: "0.9.0" },
      ]);
    });

    it("stores records as the kit emits them (no id, no time) under ids derived from their content, once", async () => {
      const NOW = 1767225700000;
      const kit = [
        { tool: "book", agent: "planner", permitted: true, outcome: "error", duration_seconds: 0.25, failure: "ToolFailure", code: "upstream_broken", abandoned: false },
        // The same attempt twice in one file: two attempts, two rows.
        { tool: "book", agent: "planner", permitted: true, outcome: "error", duration_seconds: 0.25, failure: "ToolFailure", code: "upstream_broken", abandoned: false },
        { tool: "cancel", agent: "planner", permitted: true, outcome: "declined", duration_seconds: 0.0, failure: "ToolRefusal", code: "booking_not_cancellable", abandoned: false },
      ];
      expect(await ingestAdkSpans(store, "default", { run_id: "run_k" }, kit, NOW)).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
      const stored = (await rows("tool_call_spans")).map((x) => pick(x, ["span_id", "call_id", "tool", "attempt", "started_at", "ended_at", "outcome", "code", "service", "derived"]));
      const ids = stored.map((x) => x.span_id as string);
      expect(ids.every((id) => /^adk-span:[0-9a-f]{32}$/.test(id))).toBe(true);
      expect(new Set(ids).size).toBe(3);
      expect(stored.map(({ span_id: _id, call_id, ...rest }) => ({ ...rest, ownCall: call_id === _id }))).toEqual([
        { tool: "book", attempt: null, started_at: NOW - 250, ended_at: NOW, outcome: "failed", code: "upstream_broken", service: "planner", derived: "span_id,started_at,ended_at", ownCall: true },
        { tool: "book", attempt: null, started_at: NOW - 250, ended_at: NOW, outcome: "failed", code: "upstream_broken", service: "planner", derived: "span_id,started_at,ended_at", ownCall: true },
        // A declined call is never retried: not retryable, derived from the outcome.
        { tool: "cancel", attempt: null, started_at: NOW, ended_at: NOW, outcome: "declined", code: "booking_not_cancellable", service: "planner", derived: "span_id,started_at,ended_at,retryable", ownCall: true },
      ]);
      // The file sent again later (a retrying exporter), or with keys in another order: same ids, nothing stored twice.
      const reordered = kit.map((k) => Object.fromEntries(Object.entries(k).reverse()));
      expect(await ingestAdkSpans(store, "default", { run_id: "run_k" }, reordered, NOW + 60_000)).toEqual({ accepted: 3, duplicates: 3, rejected: [] });
      expect((await rows("tool_call_spans")).map((x) => x.span_id)).toEqual(ids);
      // Another run's identical record is another attempt.
      expect(await ingestAdkSpans(store, "default", { run_id: "run_l" }, kit.slice(0, 1), NOW)).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await rows("tool_call_spans", "run_id = 'run_l'")).toHaveLength(1);
    });

    it("numbers the attempts of records that name their call, by time, and marks them derived", async () => {
      const r = await ingestAdkSpans(store, "default", { run_id: "run_c" }, [
        { id: "b2", call_id: "toolu_1", at: 1767225601, tool: "book", outcome: "ok" },
        { id: "b1", call_id: "toolu_1", at: 1767225600, tool: "book", outcome: "error", failure: "ToolFailure", code: "upstream_unavailable" },
        { id: "p1", call_id: "toolu_2", attempt: 4, at: 1767225602, tool: "pay", outcome: "ok" },
      ]);
      expect(r).toEqual({ accepted: 3, duplicates: 0, rejected: [] });
      expect((await rows("tool_call_spans")).map((x) => [x.span_id, x.call_id, x.attempt, x.derived])).toEqual([
        ["b2", "toolu_1", 2, "attempt"],
        ["b1", "toolu_1", 1, "attempt"],
        ["p1", "toolu_2", 4, null],
      ]);
      expect((await rows("run_stats", "run_id = 'run_c'", "run_id")).map((x) => pick(x, ["attempts", "calls", "retries", "failed_attempts"]))).toEqual([
        { attempts: 3, calls: 1, retries: 2, failed_attempts: 1 },
      ]);
    });

    it("keeps the agent and release the records name on the run's counters, for runs with no run record", async () => {
      await ingestAdkSpans(store, "default", { run_id: "run_s" }, [
        { id: "a1", at: 1767225600, tool: "book", agent: "planner", release: "0.4.0", outcome: "ok" },
        { id: "a2", at: 1767225601, tool: "book", agent: "planner", agent_version: "0.4.0", outcome: "error", failure: "ToolFailure", code: "upstream_broken" },
      ]);
      await ingestAdkSpans(store, "default", { run_id: "run_t", resource: { release: "2026.11.3" } }, [{ id: "a3", at: 1767225600, tool: "book", outcome: "ok" }]);
      expect((await rows("run_stats", "1 = 1", "run_id")).map((x) => pick(x, ["run_id", "agent", "release"]))).toEqual([
        { run_id: "run_s", agent: "planner", release: "0.4.0" },
        { run_id: "run_t", agent: "", release: "2026.11.3" },
      ]);
    });

    it("needs a run id on the span or the batch", async () => {
      const r = await ingestAdkSpans(store, "default", {}, [{ id: "s1", at: 1767225600, tool: "t", outcome: "ok" }]);
      expect(r).toEqual({ accepted: 0, duplicates: 0, rejected: [{ index: 0, id: "s1", code: "invalid_record", message: "run_id: required on the span, the batch, or (for a bare list) the query string" }] });
    });
  });
});
