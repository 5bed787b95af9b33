import type { DropRow, RunRow, SpanRow, ToolErrorRow } from "@/lib/ingest/rows";
import type { RollupRow } from "../rollups/define-rollup";
import { periodOf } from "../rollups/periods";
import type { StoredRow } from "../rollups/compile-rollup";
import { rollupBatches, type RollupBatches } from "../rollups/registry";
import type { RollupBatch } from "../rollups/rollup-batch";
import type { callEndings } from "../schema/call-endings";
import type { codeCatalogue } from "../schema/codes";
import { delayBucket } from "../schema/delay-histograms";
import type { runStatsRollup } from "../schema/run-stats";

type RunStatsRow = RollupRow<typeof runStatsRollup>;

/** The fields of a stored span that classification-dependent counters read. */
export type ClassifiedSpan = Pick<
  SpanRow,
  "tool" | "toolVersion" | "code" | "outcome" | "errorClass" | "retryable" | "retryAfterMs" | "backoffMs" | "decision" | "attempt" | "release" | "service" | "environment" | "startedAt" | "endedAt" | "runId"
>;
type CodeRow = RollupRow<typeof codeCatalogue>;

/** Ended calls of one hour, tool and kind of ending (db/schema/call-endings.ts), without the project. */
export type EndingRow = Omit<RollupRow<typeof callEndings>, "projectId">;

/** A run's counters row that only moves its time span (and counts `errors` final errors). */
const runSpan = (projectId: string, runId: string, first: number, last: number, errors: number, agent: string | null, release: string | null): RunStatsRow => ({
  projectId, runId, attempts: 0, calls: 0, retries: 0, failedAttempts: 0, declined: 0, refused: 0, errors, firstStartedAt: first, lastEndedAt: last,
  agent: agent ?? "", release: release ?? "",
});

// Rows are written out as literals, never spread: a spread row takes a slower object shape and made
// a 500-span batch's aggregation ~2.5x slower.

/**
 * What a batch's new rows add to every rollup, merged per key in memory (each rollup's own merge
 * rules), so the write costs one upsert per touched key and table.
 */
export class BatchAggregates {
  /** One batch per rollup (db/rollups/registry.ts); told steps' deltas are added by db/ingest/told-steps.ts. */
  readonly rollups: RollupBatches = rollupBatches();

  /**
   * Calls whose told steps changed whether they count as recovered, with the state now (by run and
   * call): db/ingest/call-endings.ts moves their endings.
   */
  readonly recoveryChanges = new Map<string, { runId: string; callId: string; recovered: boolean }>();

  constructor(private readonly projectId: string) {}

  /** Ended calls joining (`sign` 1) or leaving (-1) their hour's SLO counts. */
  addEnding(r: EndingRow, sign: 1 | -1): void {
    this.rollups.callEndings.add({
      projectId: this.projectId, hour: r.hour, tool: r.tool, failed: r.failed, declined: r.declined, recovered: r.recovered, calls: sign * r.calls,
    });
  }

  /** Every rollup batch, for the write path, in the registry's order (PostgreSQL locks rollup tables in it). */
  all(): RollupBatch<StoredRow>[] {
    return Object.values(this.rollups);
  }

  /** A span that looked like a tool call and was refused: counted per emitter, reason and attribute. */
  addDrop(d: DropRow): void {
    this.rollups.drops.add({
      projectId: this.projectId, service: d.emitter.service ?? "", convention: d.emitter.convention, reason: d.reason, attribute: d.attribute ?? "",
      spans: 1, lastSeen: d.at,
    });
  }

  /**
   * A stored span whose derived attempt number moved (an earlier sibling of its call arrived later):
   * the counters that depend on the number move with it, so rollups stay equal to a recount. Numbers
   * only ever rise this way, which is what keeps the max-merged `max_attempt` exact.
   */
  moveAttempt(
    s: Pick<SpanRow, "tool" | "code" | "outcome" | "errorClass" | "release" | "service" | "environment" | "startedAt" | "runId">,
    from: number,
    to: number,
  ): void {
    const { projectId } = this;
    const hour = periodOf(s.startedAt);
    const release = s.release ?? "";
    const service = s.service ?? "";
    const environment = s.environment ?? "";
    const first = (to === 1 ? 1 : 0) - (from === 1 ? 1 : 0);
    const retry = (to > 1 ? 1 : 0) - (from > 1 ? 1 : 0);
    this.rollups.spanRollups.add({
      projectId, hour, tool: s.tool, code: s.code ?? "", outcome: s.outcome ?? "", errorClass: s.errorClass ?? "", release, service, environment,
      spans: 0,
      firstAttempts: first,
      secondAttempts: (to === 2 ? 1 : 0) - (from === 2 ? 1 : 0),
      retryAttempts: retry,
      unnumbered: 0,
      maxAttempt: to,
      retryAfterCount: 0, retryAfterSumMs: 0, backoffCount: 0, backoffSumMs: 0, failedClosed: 0, durationSumMs: 0,
    });
    this.rollups.attemptCounts.add({ projectId, hour, tool: s.tool, release, service, environment, attempt: from, spans: -1 });
    this.rollups.attemptCounts.add({ projectId, hour, tool: s.tool, release, service, environment, attempt: to, spans: 1 });
    this.rollups.runStats.add({
      projectId, runId: s.runId, attempts: 0, calls: first, retries: retry, failedAttempts: 0, declined: 0, refused: 0, errors: 0,
      firstStartedAt: s.startedAt, lastEndedAt: s.startedAt, agent: "", release: "",
    });
  }

  /**
   * A stored span whose classification changed (a rule was added or edited, db/classify/reclassify.ts):
   * the counters keyed or counted by code, class, outcome, retryable and retry_after leave the old
   * values and join the new ones, so rollups stay equal to a recount. Max- and min-merged values are
   * left as they are (an upper bound for the old key; rows emptied to zero are pruned after the write).
   */
  moveClassification(before: ClassifiedSpan, after: ClassifiedSpan): void {
    this.addClassified(before, -1);
    this.addClassified(after, 1);
  }

  private addClassified(s: ClassifiedSpan, sign: 1 | -1): void {
    const { projectId } = this;
    this.addSpanCounters(s, sign);
    if (s.code !== null) {
      const row = this.codeRow(s.code, s, s.startedAt, sign, 0);
      // Min/max merged sightings: a leaving span must not move them.
      if (sign === -1) Object.assign(row, { firstSeen: Number.MAX_SAFE_INTEGER, lastSeen: 0 });
      this.rollups.codes.add(row);
      this.rollups.runCodes.add({ projectId, code: s.code, runId: s.runId, tool: s.tool, count: sign });
    }
    this.rollups.runStats.add({
      projectId, runId: s.runId, attempts: 0, calls: 0, retries: 0,
      failedAttempts: s.outcome !== null && s.outcome !== "ok" ? sign : 0,
      declined: s.outcome === "declined" ? sign : 0,
      refused: s.outcome === "refused" ? sign : 0,
      errors: 0, firstStartedAt: s.startedAt, lastEndedAt: s.startedAt, agent: "", release: "",
    });
  }

  /**
   * The span rollups and delay histograms of one span, added (`sign` 1) or taken back (-1). Written
   * out as literals for the ingest hot path; a taken-back row leaves the max-merged attempt alone.
   */
  private addSpanCounters(s: ClassifiedSpan, sign: 1 | -1): void {
    const { projectId } = this;
    const attempt = s.attempt ?? 0;
    const hour = periodOf(s.startedAt);
    const code = s.code ?? "";
    const release = s.release ?? "";
    const service = s.service ?? "";
    const environment = s.environment ?? "";
    this.rollups.spanRollups.add({
      projectId, hour, tool: s.tool, code, outcome: s.outcome ?? "", errorClass: s.errorClass ?? "", release, service, environment,
      spans: sign,
      firstAttempts: attempt === 1 ? sign : 0,
      secondAttempts: attempt === 2 ? sign : 0,
      retryAttempts: attempt > 1 ? sign : 0,
      unnumbered: s.attempt === null ? sign : 0,
      maxAttempt: sign === 1 ? attempt : 0,
      retryAfterCount: s.retryAfterMs !== null ? sign : 0,
      retryAfterSumMs: sign * (s.retryAfterMs ?? 0),
      backoffCount: s.backoffMs !== null ? sign : 0,
      backoffSumMs: sign * (s.backoffMs ?? 0),
      failedClosed: s.decision === "failed_closed" ? sign : 0,
      durationSumMs: sign * Math.max(0, s.endedAt - s.startedAt),
    });
    if (s.retryAfterMs !== null) {
      this.rollups.delayHistograms.add({ projectId, hour, tool: s.tool, code, release, service, environment, kind: "retry_after", bucketMs: delayBucket(s.retryAfterMs), count: sign });
    }
    if (s.backoffMs !== null) {
      this.rollups.delayHistograms.add({ projectId, hour, tool: s.tool, code, release, service, environment, kind: "backoff", bucketMs: delayBucket(s.backoffMs), count: sign });
    }
  }

  addSpan(s: SpanRow): void {
    const { projectId } = this;
    const attempt = s.attempt ?? 0;
    const hour = periodOf(s.startedAt);
    const release = s.release ?? "";
    const service = s.service ?? "";
    const environment = s.environment ?? "";
    this.addSpanCounters(s, 1);
    if (s.attempt !== null) this.rollups.attemptCounts.add({ projectId, hour, tool: s.tool, release, service, environment, attempt: s.attempt, spans: 1 });
    if (s.code !== null) {
      this.rollups.codes.add(this.codeRow(s.code, s, s.startedAt, 1, 0));
      this.rollups.runCodes.add({ projectId, code: s.code, runId: s.runId, tool: s.tool, count: 1 });
    }
    const failed = s.outcome !== null && s.outcome !== "ok" ? 1 : 0;
    // Conformance counts what the emitter sent: a code a rule set is not the emitter's (lib/classify).
    const own = s.classification?.prior ?? s;
    this.rollups.runTools.add({ projectId, tool: s.tool, runId: s.runId });
    this.rollups.conformance.add({
      projectId, source: s.source,
      spans: 1,
      noOutcome: s.outcome === null ? 1 : 0,
      nonOk: failed,
      noCode: failed && own.code === null ? 1 : 0,
      noAttempt: s.attempt === null ? 1 : 0,
      noRelease: s.release === null ? 1 : 0,
    });
    const derived = s.derived === null ? [] : s.derived.split(",");
    const nonOk = s.outcome !== null && s.outcome !== "ok";
    this.rollups.emitters.add({
      projectId, service: (s.emitter ? s.emitter.service : s.service) ?? "", convention: s.emitter?.convention ?? s.source,
      spans: 1,
      noCallId: derived.includes("call_id") ? 1 : 0,
      noRunId: derived.includes("run_id") ? 1 : 0,
      noAttempt: s.attempt === null || derived.includes("attempt") ? 1 : 0,
      derivedCallId: derived.includes("call_id") ? 1 : 0,
      derivedRunId: derived.includes("run_id") ? 1 : 0,
      derivedAttempt: s.attempt !== null && derived.includes("attempt") ? 1 : 0,
      noOutcome: s.outcome === null ? 1 : 0,
      nonOk: nonOk ? 1 : 0,
      noCode: nonOk && own.code === null ? 1 : 0,
      noErrorClass: nonOk && own.errorClass === null ? 1 : 0,
      noMessage: nonOk && s.message === null ? 1 : 0,
      noRelease: s.release === null ? 1 : 0,
      lastSeen: s.startedAt,
    });
    this.rollups.runStats.add({
      projectId, runId: s.runId,
      attempts: 1,
      calls: attempt === 1 ? 1 : 0,
      retries: attempt > 1 ? 1 : 0,
      failedAttempts: failed,
      declined: s.outcome === "declined" ? 1 : 0,
      refused: s.outcome === "refused" ? 1 : 0,
      errors: 0,
      firstStartedAt: s.startedAt,
      lastEndedAt: s.endedAt,
      agent: service,
      release,
    });
  }

  /**
   * A run with no spans yet still gets its counters row, so the runs list shows it. `first_started_at`
   * orders and windows the list and must be a time; for a run known only from its end it is the end,
   * the latest moment the run can have started, and the min-merge lowers it when the start or a span
   * arrives. The run's own start stays unknown in `runs.started_at`, which is what the list shows.
   */
  addRun(r: RunRow): void {
    const first = r.startedAt ?? r.endedAt;
    const last = r.endedAt ?? r.startedAt;
    if (first === null || last === null) return;
    this.rollups.runStats.add(runSpan(this.projectId, r.runId, first, last, 0, r.agent ?? r.service, r.release));
  }

  addToolError(e: ToolErrorRow): void {
    this.addErrorCounters(e, 1);
    this.rollups.runStats.add(runSpan(this.projectId, e.runId, e.occurredAt, e.occurredAt, 1, e.service, e.release));
  }

  /**
   * A stored final error whose classification changed (db/classify/reclassify-errors.ts): its error
   * rollup and codes catalogue counters leave the old code, class and retryable and join the new.
   */
  moveErrorClassification(before: ToolErrorRow, after: ToolErrorRow): void {
    this.addErrorCounters(before, -1);
    this.addErrorCounters(after, 1);
  }

  /** The error rollups and codes catalogue counters of one final error, added (`sign` 1) or taken back (-1). */
  private addErrorCounters(e: ToolErrorRow, sign: 1 | -1): void {
    this.rollups.errorRollups.add({
      projectId: this.projectId, hour: periodOf(e.occurredAt), tool: e.tool, code: e.code ?? "", errorClass: e.errorClass ?? "", decision: e.decision ?? "",
      release: e.release ?? "", service: e.service ?? "", environment: e.environment ?? "",
      errors: sign,
      attemptsSum: sign * (e.attempts ?? 0),
      retryableCount: e.retryable ? sign : 0,
    });
    if (e.code !== null) {
      const row = this.codeRow(e.code, e, e.occurredAt, 0, sign);
      // Min/max merged sightings: a leaving error must not move them.
      if (sign === -1) Object.assign(row, { firstSeen: Number.MAX_SAFE_INTEGER, lastSeen: 0 });
      this.rollups.codes.add(row);
      this.rollups.runCodes.add({ projectId: this.projectId, code: e.code, runId: e.runId, tool: e.tool, count: sign });
    }
  }

  /** One sighting of a code at `at`, from a span or a final error. */
  private codeRow(
    code: string,
    r: { tool: string; release: string | null; toolVersion: string | null; errorClass: string | null; retryable: boolean | null },
    at: number,
    spans: number,
    errors: number,
  ): CodeRow {
    return {
      projectId: this.projectId, code, tool: r.tool, release: r.release ?? "", toolVersion: r.toolVersion ?? "", errorClass: r.errorClass ?? "",
      retryable: r.retryable === null ? -1 : r.retryable ? 1 : 0, firstSeen: at, lastSeen: at, spans, errors,
    };
  }
}
