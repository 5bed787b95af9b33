import type { Store } from "@/db/client";
import type { RunRow, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import { writeRows } from "@/db/ingest/write-rows";
import { runRow, spanRow } from "../helpers/rows";

/** A fixed clock: 2026-11-01T12:00:00Z. */
export const H = Date.UTC(2026, 10, 1, 12, 0, 0);
export const XSS_TOLD = "lookup_customer: permission denied <img src=x onerror=alert(1)>";

function span(runId: string, callId: string, tool: string, attempt: number | null, from: number, to: number, over: Partial<SpanRow> = {}): SpanRow {
  const base = { traceId: "trace-1", release: "2026.11.3", service: "support-agent" };
  return spanRow({ spanId: `${callId}-a${attempt ?? "x"}`, runId, callId, tool, attempt, startedAt: H + from, endedAt: H + to, ...base, ...over });
}

const failed = (code: string, over: Partial<SpanRow> = {}): Partial<SpanRow> => ({
  outcome: "failed",
  code,
  errorClass: "ToolFailure",
  retryable: true,
  decision: "retried",
  ...over,
});

function toolError(runId: string, callId: string, tool: string, at: number, over: Partial<ToolErrorRow>): ToolErrorRow {
  return {
    eventId: `${runId}-${callId}-err`,
    runId,
    callId,
    tool,
    toolVersion: "1.0.0",
    release: "2026.11.3",
    service: "support-agent",
    environment: "prod",
    code: null,
    errorClass: null,
    retryable: null,
    attempts: 1,
    decision: null,
    told: null,
    derived: null,
    occurredAt: H + at,
    source: "native",
    experiment: null,
    variant: null,
    ...over,
  };
}

function run(runId: string, over: Partial<RunRow>): RunRow {
  return runRow({ runId, agent: "support-agent", release: "2026.11.3", service: "support-agent", startedAt: H, endedAt: H + 20_000, state: "failed", ...over });
}

const R = "run-every-decision";

/** One run that shows every decision kind, plus incomplete data; budget 4 retries per tool. */
export function everyDecisionRun(): { runs: RunRow[]; spans: SpanRow[]; errors: ToolErrorRow[] } {
  const spans: SpanRow[] = [
    // c1: retried, then succeeded; the tool asked for 1 s, the loop waited 1.2 s.
    span(R, "c1", "search_flights", 1, 0, 300, failed("upstream_unavailable", { retryAfterMs: 1000, backoffMs: 1200 })),
    span(R, "c1", "search_flights", 2, 1500, 1700),
    // c2: in parallel with c1.
    span(R, "c2", "search_flights", 1, 100, 900),
    // c3: a refusal delivered once as data.
    span(R, "c3", "cancel_booking", 1, 2000, 2100, { outcome: "declined", code: "booking_not_cancellable", errorClass: "ToolRefusal", retryable: false, decision: "delivered" }),
    // c4: permission said no; surfaced to the model.
    span(R, "c4", "lookup_customer", 1, 2200, 2210, { outcome: "refused", code: "not_permitted", errorClass: "ToolNotPermittedError", retryable: false, decision: "surfaced", permitted: false }),
    // c5: FAIL_RUN policy.
    span(R, "c5", "charge_card", 1, 2500, 2900, failed("card_declined", { retryable: false, decision: "failed_run" })),
    // c6: asked for 10 minutes, beyond the cap: failed closed.
    span(R, "c6", "fetch_weather", 1, 3000, 3100, failed("rate_limited", { retryAfterMs: 600_000, decision: "failed_closed" })),
    // c7: per-call attempts used up.
    span(R, "c7", "fetch_weather", 1, 3200, 3700, { ...failed("upstream_timeout", { outcome: "timed_out", errorClass: "ToolTimedOutError", backoffMs: 300 }) }),
    span(R, "c7", "fetch_weather", 2, 4000, 4500, { ...failed("upstream_timeout", { outcome: "timed_out", errorClass: "ToolTimedOutError", backoffMs: 600 }) }),
    span(R, "c7", "fetch_weather", 3, 5100, 5600, { ...failed("upstream_timeout", { outcome: "timed_out", errorClass: "ToolTimedOutError", decision: "exhausted" }) }),
    // c8: the tool's run budget (4 retries; c1 used one) runs out.
    span(R, "c8", "search_flights", 1, 6000, 6100, failed("upstream_unavailable", { backoffMs: 100 })),
    span(R, "c8", "search_flights", 2, 6200, 6300, failed("upstream_unavailable", { backoffMs: 200 })),
    span(R, "c8", "search_flights", 3, 6500, 6600, failed("upstream_unavailable", { backoffMs: 400 })),
    span(R, "c8", "search_flights", 4, 7000, 7100, failed("upstream_unavailable", { decision: "budget_capped" })),
    // c9: cancelled.
    span(R, "c9", "send_email", 1, 8000, 8500, { outcome: "cancelled", code: "cancelled", decision: "cancelled" }),
    // c10: incomplete data — attempt 2 missing, an attempt with no number, clocks that disagree.
    span(R, "c10", "lookup_customer", 1, 9000, 9400, failed("upstream_unavailable", { backoffMs: 100 })),
    span(R, "c10", "lookup_customer", 3, 9300, 9200, failed("upstream_unavailable", { backoffMs: 100 })),
    span(R, "c10", "lookup_customer", null, 24_000, 24_500, { outcome: "ok" }),
  ];
  const errors = [
    toolError(R, "c3", "cancel_booking", 2100, { code: "booking_not_cancellable", errorClass: "ToolRefusal", retryable: false, decision: "delivered", told: "booking_not_cancellable: this fare is non-refundable" }),
    toolError(R, "c4", "lookup_customer", 2210, { code: "not_permitted", errorClass: "ToolNotPermittedError", retryable: false, decision: "surfaced", told: XSS_TOLD }),
    toolError(R, "c5", "charge_card", 2900, { code: "card_declined", errorClass: "ToolFailure", retryable: false, decision: "failed_run", told: "card_declined: the card was declined" }),
    toolError(R, "c6", "fetch_weather", 3100, { code: "rate_limited", errorClass: "ToolFailure", retryable: true, decision: "failed_closed", told: "rate_limited: try again in 10 minutes" }),
    toolError(R, "c7", "fetch_weather", 5600, { code: "upstream_timeout", errorClass: "ToolTimedOutError", retryable: true, attempts: 3, decision: "exhausted", told: "upstream_timeout: gave up after 3 attempts" }),
    toolError(R, "c8", "search_flights", 7100, { code: "upstream_unavailable", errorClass: "ToolFailure", retryable: true, attempts: 4, decision: "budget_capped", told: "upstream_unavailable: retry budget used up" }),
    toolError(R, "c9", "send_email", 8500, { code: "cancelled", errorClass: null, retryable: null, decision: "cancelled", told: "the run was cancelled" }),
  ];
  const runs = [run(R, { deadlineAt: H + 22_000, maxToolAttempts: 4, error: "charge_card failed the run" })];
  return { runs, spans, errors };
}

/** The seed of the API and browser tests, into `project`: the run above, a run without its record, and a clean run. */
export async function seedRuns(store: Store, project: string): Promise<void> {
  const main = everyDecisionRun();
  const orphan = [
    span("run-orphan", "o1", "search_flights", 1, 60_000, 60_400, failed("upstream_unavailable", { backoffMs: 500 })),
    span("run-orphan", "o1", "search_flights", 2, 60_900, 61_000),
  ];
  const clean = [span("run-clean", "k1", "lookup_customer", 1, 120_000, 120_050, { service: "billing-agent", release: "2026.11.4" })];
  await writeRows(store, project, {
    runs: [...main.runs, run("run-clean", { agent: "billing-agent", release: "2026.11.4", environment: "staging", startedAt: H + 120_000, endedAt: H + 121_000, state: "completed" })].map((row, index) => ({ index, row })),
    spans: [...main.spans, ...orphan, ...clean].map((row, index) => ({ index, row })),
    toolErrors: main.errors.map((row, index) => ({ index, row })),
  }, H + 200_000);
}
