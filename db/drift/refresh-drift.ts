import type { Store } from "../client";
import { quantizeDelay } from "@/lib/drift/delays";
import { releaseKey, type ReleaseKey } from "@/lib/drift/release-key";
import { retryableValue } from "@/lib/drift/signature";
import { toldShape } from "@/lib/drift/told-shape";
import { DriftDeltas, mergeExamples, splitKey } from "./deltas";
import { recomputeFindings } from "./recompute-findings";
import { driftStatements, type CallRow, type DriftStatements, type ErrorScanRow, type SpanScanRow } from "./statements";

/** Rows folded in per transaction: bounded so a large backlog never holds the writer lock for long. */
const CHUNK = 5000;

export interface RefreshResult {
  spans: number;
  errors: number;
  findingsRecomputed: boolean;
}

/** "Later attempt" by attempt number when both are known, else by start time. */
function isLater(okAttempt: number | null, okStartedAt: number, call: { attempt: number | null; started_at: number }): boolean {
  if (okAttempt !== null && call.attempt !== null) return okAttempt > call.attempt;
  return okStartedAt > call.started_at;
}

class ChunkFolder {
  readonly deltas = new DriftDeltas();
  constructor(
    private readonly st: DriftStatements,
    private readonly projectId: string,
  ) {}

  private recoveredCall(call: Pick<CallRow, "code" | "tool" | "release">, at: number): void {
    // The kind is a placeholder: the call's signature row already exists and keeps its own kind.
    const d = this.deltas.signature(call.code, call.tool, call.release, "release", at, null);
    d.recovered++;
  }

  /** Counts the call once per code, and marks it recovered if an ok attempt came after the code. */
  private trackCall(runId: string, callId: string, code: string, tool: string, rk: ReleaseKey, attempt: number | null, at: number, finalError: boolean): void {
    const st = this.st;
    const existing = st.getCall.get(this.projectId, runId, callId, code);
    const recoveredNow = (probe: { attempt: number | null; started_at: number }) =>
      !finalError && st.okAttemptsOfCall.all(this.projectId, runId, callId).some((ok) => isLater(ok.attempt, ok.started_at, probe));
    if (!existing) {
      const probe = { attempt, started_at: at };
      const recovered = recoveredNow(probe);
      st.insertCall.run(this.projectId, runId, callId, code, tool, rk.release, attempt, at, recovered ? 1 : 0);
      const d = this.deltas.signature(code, tool, rk.release, rk.kind, at, null);
      d.calls++;
      if (recovered) d.recovered++;
      return;
    }
    // A final error only says the call ended in error; an attempt row can move the earliest sighting.
    if (finalError) return;
    const earlier = existing.attempt === null ? attempt !== null || at < existing.started_at : attempt !== null && attempt < existing.attempt;
    if (!earlier && existing.recovered === 1) return;
    const probe = earlier ? { attempt, started_at: at } : existing;
    const recovered = existing.recovered === 1 || recoveredNow(probe);
    st.updateCall.run(probe.attempt, probe.started_at, recovered ? 1 : 0, this.projectId, runId, callId, code);
    if (recovered && existing.recovered === 0) this.recoveredCall(existing, at);
  }

  span(r: SpanScanRow): void {
    const rk = releaseKey(r.tool_version, r.release, r.sdk_version, r.started_at);
    const tr = this.deltas.toolRelease(r.tool, rk.release, rk.kind, r.started_at, r.run_id);
    tr.spans++;
    if (r.attempt === null || r.attempt <= 1) tr.firstAttempts++;
    if (r.code !== null && r.code !== "") {
      const d = this.deltas.signature(r.code, r.tool, rk.release, rk.kind, r.started_at, r.run_id);
      d.spans++;
      const count = (dim: string, value: string | null) => value !== null && value !== "" && this.deltas.count(r.code!, r.tool, rk.release, "attempts", dim, value);
      count("error_class", r.error_class);
      count("retryable", r.retryable === null ? null : retryableValue(r.retryable === 1));
      count("outcome", r.outcome);
      count("decision", r.decision);
      if (r.retry_after_ms !== null && r.retry_after_ms >= 0) count("retry_after", String(quantizeDelay(r.retry_after_ms)));
      this.trackCall(r.run_id, r.call_id, r.code, r.tool, rk, r.attempt, r.started_at, false);
    }
    // An ok first attempt cannot follow anything, so only later ones are looked up.
    if (r.outcome === "ok" && (r.attempt === null || r.attempt > 1)) {
      for (const call of this.st.openCallsOf.all(this.projectId, r.run_id, r.call_id)) {
        if (!isLater(r.attempt, r.started_at, call)) continue;
        this.st.updateCall.run(call.attempt, call.started_at, 1, this.projectId, r.run_id, r.call_id, call.code);
        this.recoveredCall(call, r.started_at);
      }
    }
  }

  error(e: ErrorScanRow): void {
    const sdk = (e.tool_version ?? "") === "" && (e.release ?? "") === "" ? (this.st.sdkVersionOfCall.get(this.projectId, e.run_id, e.call_id)?.sdk_version ?? null) : null;
    const rk = releaseKey(e.tool_version, e.release, sdk, e.occurred_at);
    this.deltas.toolRelease(e.tool, rk.release, rk.kind, e.occurred_at, e.run_id).errors++;
    if (e.code === null || e.code === "") return;
    this.deltas.signature(e.code, e.tool, rk.release, rk.kind, e.occurred_at, e.run_id).errors++;
    const count = (dim: string, value: string | null) => value !== null && value !== "" && this.deltas.count(e.code!, e.tool, rk.release, "errors", dim, value);
    count("error_class", e.error_class);
    count("retryable", e.retryable === null ? null : retryableValue(e.retryable === 1));
    count("decision", e.decision);
    if (e.told !== null && e.told !== "") count("told", toldShape(e.told, e.code));
    this.trackCall(e.run_id, e.call_id, e.code, e.tool, rk, null, e.occurred_at, true);
  }

  flush(): void {
    const { st, projectId, deltas } = this;
    for (const [key, d] of deltas.signatures) {
      const [code, tool, release] = splitKey(key) as [string, string, string];
      const old = st.getSignature.get(projectId, code, tool, release);
      st.putSignature.run(
        projectId, code, tool, release, old?.release_kind ?? d.releaseKind,
        (old?.spans ?? 0) + d.spans, (old?.errors ?? 0) + d.errors, (old?.calls ?? 0) + d.calls, (old?.recovered ?? 0) + d.recovered,
        Math.min(old?.first_seen ?? d.firstSeen, d.firstSeen), Math.max(old?.last_seen ?? d.lastSeen, d.lastSeen),
        mergeExamples(old?.example_run_ids ?? "[]", d.runIds),
      );
    }
    for (const [key, d] of deltas.toolReleases) {
      const [tool, release] = splitKey(key) as [string, string];
      const old = st.getToolRelease.get(projectId, tool, release);
      st.putToolRelease.run(
        projectId, tool, release, d.releaseKind, (old?.first_attempts ?? 0) + d.firstAttempts, (old?.spans ?? 0) + d.spans,
        (old?.errors ?? 0) + d.errors, Math.min(old?.first_seen ?? d.firstSeen, d.firstSeen), Math.max(old?.last_seen ?? d.lastSeen, d.lastSeen),
        mergeExamples(old?.example_run_ids ?? "[]", d.runIds),
      );
    }
    for (const [key, n] of deltas.counts) {
      const [code, tool, release, basis, dim, value] = splitKey(key) as [string, string, string, string, string, string];
      st.addCount.run(projectId, code, tool, release, basis, dim, value, n);
    }
  }
}

/**
 * Folds at most one chunk of the spans and tool errors that arrived since the last fold into the
 * drift accumulators, in one transaction with its watermark (a crash or a concurrent fold never
 * counts a row twice), and marks the findings stale. Returns the rows folded; 0 means caught up.
 * A smaller `limit` keeps each transaction short when folding beside live ingest.
 */
export function foldDriftChunk(store: Store, projectId: string, now: number = Date.now(), limit: number = CHUNK): { spans: number; errors: number } {
  const st = driftStatements(store.sqlite);
  return store.sqlite
    .transaction(() => {
      const state = st.getState.get(projectId) ?? { span_watermark: 0, error_watermark: 0, findings_computed_at: null };
      const folder = new ChunkFolder(st, projectId);
      let spanMark = state.span_watermark;
      let errorMark = state.error_watermark;
      const spanRows = st.spansAfter.all(spanMark, projectId, limit);
      for (const r of spanRows) {
        folder.span(r);
        spanMark = r.pk;
      }
      // Errors only once spans are caught up, so that an error's call usually finds its attempts.
      const errorRows = spanRows.length < limit ? st.errorsAfter.all(errorMark, projectId, limit) : [];
      for (const e of errorRows) {
        folder.error(e);
        errorMark = e.pk;
      }
      if (spanRows.length + errorRows.length > 0) {
        folder.flush();
        st.putWatermarks.run(projectId, spanMark, errorMark, now);
      }
      return { spans: spanRows.length, errors: errorRows.length };
    })
    .immediate();
}

/**
 * Brings a project's drift up to date: folds every new row, then recomputes the findings if they
 * are stale (rows were folded, here or by a background fold) or were never computed. Cheap when
 * nothing is new: two empty rowid range scans.
 */
export function refreshDrift(store: Store, projectId: string, now: number = Date.now()): RefreshResult {
  const st = driftStatements(store.sqlite);
  const state = st.getState.get(projectId);
  if (
    state?.findings_computed_at != null &&
    !st.hasSpanAfter.get(state.span_watermark, projectId) &&
    !st.hasErrorAfter.get(state.error_watermark, projectId)
  ) {
    return { spans: 0, errors: 0, findingsRecomputed: false };
  }
  let spans = 0;
  let errors = 0;
  for (;;) {
    const folded = foldDriftChunk(store, projectId, now);
    spans += folded.spans;
    errors += folded.errors;
    if (folded.spans + folded.errors === 0) break;
  }
  const stale = st.getState.get(projectId)?.findings_computed_at == null;
  if (stale) store.sqlite.transaction(() => recomputeFindings(store, projectId, now)).immediate();
  return { spans, errors, findingsRecomputed: stale };
}
