import { quantizeDelay } from "@/lib/drift/delays";
import { releaseKey, type ReleaseKey } from "@/lib/drift/release-key";
import { emitterSaid, setByRule } from "@/lib/drift/emitter-said";
import { retryableValue } from "@/lib/drift/signature";
import type { Tx } from "../store/types";
import { DriftDeltas, mergeExamples, splitKey } from "./deltas";
import { errorDims, errorReleaseKey, moveFoldedError, type VersionedSpan } from "./error-attribution";
import { driftSql, type CallRow, type CallSpanRow, type ErrorScanRow, type SignatureRow, type SpanScanRow, type ToolReleaseRow } from "./statements";

const SEP = "\u0000";
const callKey = (runId: string, callId: string) => runId + SEP + callId;

/** "Later attempt" by attempt number when both are known, else by start time. */
function isLater(okAttempt: number | null, okStartedAt: number, call: { attempt: number | null; started_at: number }): boolean {
  if (okAttempt !== null && call.attempt !== null) return okAttempt > call.attempt;
  return okStartedAt > call.started_at;
}

interface CallState extends CallRow {
  dirty: boolean;
}

interface CallContext {
  /** The call's stored drift_calls rows by code, changed here in memory and written back at flush. */
  calls: Map<string, CallState>;
  okAttempts: { attempt: number | null; started_at: number }[];
  /** The SDK version of the call's earliest span that carries one (the release of a final error without one). */
  sdkVersion: string | null;
  /** The call's earliest span naming the tool version: what a final error without one is counted under. */
  versioned: VersionedSpan | null;
  /** Final errors folded before this chunk under their own release, moved when the first versioned span folds. */
  movable: ErrorScanRow[];
}

/** How far earlier folds got: rows at or below these `pk`s are already in the accumulators. */
export interface Watermarks {
  spans: number;
  errors: number;
}

const present = (v: string | null | undefined): v is string => typeof v === "string" && v !== "";

/**
 * Folds one chunk of raw rows into the drift accumulators within the caller's transaction. Per
 * chunk, not per row, it reads what the rows need (their calls' stored state and ok attempts) and
 * writes what changed, one statement per table: the same few round trips on either engine.
 */
export class ChunkFolder {
  private readonly deltas = new DriftDeltas();
  private readonly byCall = new Map<string, CallContext>();

  private constructor(
    private readonly tx: Tx,
    private readonly projectId: string,
    private readonly folded: Watermarks,
  ) {}

  /** Folds the rows (spans first, in `pk` order, then errors) and writes the accumulators. */
  static async fold(tx: Tx, projectId: string, spans: readonly SpanScanRow[], errors: readonly ErrorScanRow[], folded: Watermarks): Promise<void> {
    const folder = new ChunkFolder(tx, projectId, folded);
    await folder.load(spans, errors);
    for (const r of spans) folder.span(r);
    for (const e of errors) folder.error(e);
    await folder.flush();
  }

  /**
   * Reads, for the calls whose rows need it, their stored drift_calls rows (rows with a code, ok
   * retries) and their spans (recovery of a span's code; the tool version, release or SDK version of
   * a final error that names no tool version): only those, since probing every call of a chunk costs
   * as much as the fold. Calls with a versioned span here are also asked for final errors folded
   * earlier without one (a span can arrive in a later request than its call's error); the few calls
   * that have any are then read like the others.
   */
  private async load(spans: readonly SpanScanRow[], errors: readonly ErrorScanRow[]): Promise<void> {
    const sql = driftSql(this.tx.dialect);
    const callKeys = new Map<string, [string, string]>();
    const spanKeys = new Map<string, [string, string]>();
    const versionedKeys = new Map<string, [string, string]>();
    const add = (to: Map<string, [string, string]>, r: { run_id: string; call_id: string }) => {
      const key = callKey(r.run_id, r.call_id);
      to.set(key, [r.run_id, r.call_id]);
      if (!this.byCall.has(key)) this.byCall.set(key, { calls: new Map(), okAttempts: [], sdkVersion: null, versioned: null, movable: [] });
    };
    for (const r of spans) {
      const coded = r.code !== null && r.code !== "";
      if (coded || (r.outcome === "ok" && (r.attempt === null || r.attempt > 1))) add(callKeys, r);
      if (coded) add(spanKeys, r);
      if (present(r.tool_version) && this.folded.errors > 0) add(versionedKeys, r);
    }
    for (const e of errors) {
      if (e.code !== null && e.code !== "") add(callKeys, e);
      if (!present(e.tool_version)) add(spanKeys, e);
    }
    const keyed = (keys: Map<string, [string, string]>) => ({ project: this.projectId, keys: JSON.stringify([...keys.values()]) });
    const [movable, firstCalls, firstSpans] = await Promise.all([
      versionedKeys.size > 0 ? this.tx.all<ErrorScanRow>(sql.foldedErrorsOf, { ...keyed(versionedKeys), folded: this.folded.errors }) : [],
      callKeys.size > 0 ? this.tx.all<CallRow & { run_id: string; call_id: string }>(sql.callsOf, keyed(callKeys)) : [],
      spanKeys.size > 0 ? this.tx.all<CallSpanRow>(sql.spansOfCalls, keyed(spanKeys)) : [],
    ]);
    const moreCalls = new Map<string, [string, string]>();
    for (const e of movable.sort((a, b) => a.pk - b.pk)) {
      const key = callKey(e.run_id, e.call_id);
      this.context(e.run_id, e.call_id).movable.push(e);
      if (!callKeys.has(key) || !spanKeys.has(key)) moreCalls.set(key, [e.run_id, e.call_id]);
    }
    const [laterCalls, laterSpans] =
      moreCalls.size > 0
        ? await Promise.all([
            this.tx.all<CallRow & { run_id: string; call_id: string }>(sql.callsOf, keyed(new Map([...moreCalls].filter(([k]) => !callKeys.has(k))))),
            this.tx.all<CallSpanRow>(sql.spansOfCalls, keyed(new Map([...moreCalls].filter(([k]) => !spanKeys.has(k))))),
          ])
        : [[], []];
    const calls = [...firstCalls, ...laterCalls];
    const callSpans = [...firstSpans, ...laterSpans];
    for (const c of calls) {
      this.context(c.run_id, c.call_id).calls.set(c.code, {
        code: c.code, tool: c.tool, release: c.release, attempt: c.attempt, started_at: c.started_at, recovered: c.recovered, dirty: false,
      });
    }
    const sdkAt = new Map<string, [number, number]>();
    for (const s of callSpans) {
      const ctx = this.context(s.run_id, s.call_id);
      if (s.outcome === "ok") ctx.okAttempts.push({ attempt: s.attempt, started_at: s.started_at });
      if (present(s.tool_version)) {
        const v = ctx.versioned;
        if (!v || s.started_at < v.startedAt || (s.started_at === v.startedAt && s.pk < v.pk)) {
          ctx.versioned = { toolVersion: s.tool_version, release: s.release, sdkVersion: s.sdk_version, startedAt: s.started_at, pk: s.pk };
        }
        // A versioned span folded earlier already moved (or attributed) the call's errors.
        if (s.pk <= this.folded.spans) ctx.movable = [];
      }
      if (s.sdk_version !== null && s.sdk_version !== "") {
        const key = callKey(s.run_id, s.call_id);
        const at = sdkAt.get(key);
        if (!at || s.started_at < at[0] || (s.started_at === at[0] && s.pk < at[1])) {
          sdkAt.set(key, [s.started_at, s.pk]);
          ctx.sdkVersion = s.sdk_version;
        }
      }
    }
  }

  private context(runId: string, callId: string): CallContext {
    const ctx = this.byCall.get(callKey(runId, callId));
    if (!ctx) throw new Error("drift fold: a call outside the chunk");
    return ctx;
  }

  private recoveredCall(call: Pick<CallRow, "code" | "tool" | "release">, at: number): void {
    // The kind is a placeholder: the call's signature row already exists and keeps its own kind.
    const d = this.deltas.signature(call.code, call.tool, call.release, "release", at, null);
    d.recovered++;
  }

  /** Counts the call once per code, and marks it recovered if an ok attempt came after the code. */
  private trackCall(runId: string, callId: string, code: string, tool: string, rk: ReleaseKey, attempt: number | null, at: number, finalError: boolean): void {
    const ctx = this.context(runId, callId);
    const existing = ctx.calls.get(code);
    const recoveredNow = (probe: { attempt: number | null; started_at: number }) =>
      !finalError && ctx.okAttempts.some((ok) => isLater(ok.attempt, ok.started_at, probe));
    if (!existing) {
      const recovered = recoveredNow({ attempt, started_at: at });
      ctx.calls.set(code, { code, tool, release: rk.release, attempt, started_at: at, recovered: recovered ? 1 : 0, dirty: true });
      const d = this.deltas.signature(code, tool, rk.release, rk.kind, at, null);
      d.calls++;
      if (recovered) d.recovered++;
      return;
    }
    // A final error only says the call ended in error; an attempt row can move the earliest sighting.
    if (finalError) return;
    const earlier = existing.attempt === null ? attempt !== null || at < existing.started_at : attempt !== null && attempt < existing.attempt;
    if (!earlier && existing.recovered === 1) return;
    const probe = earlier ? { attempt, started_at: at } : { attempt: existing.attempt, started_at: existing.started_at };
    const wasRecovered = existing.recovered === 1;
    const recovered = wasRecovered || recoveredNow(probe);
    Object.assign(existing, { attempt: probe.attempt, started_at: probe.started_at, recovered: recovered ? 1 : 0, dirty: true });
    if (recovered && !wasRecovered) this.recoveredCall(existing, at);
  }

  private span(r: SpanScanRow): void {
    const rk = releaseKey(r.tool_version, r.release, r.sdk_version, r.started_at);
    const ctx = this.byCall.get(callKey(r.run_id, r.call_id));
    if (ctx && ctx.movable.length > 0 && present(r.tool_version)) {
      // The call's first versioned span: its errors folded earlier under their own release move to
      // the version of the call they report on. Done before the span's own code is tracked, so the
      // call is counted once, under the tool version.
      const to = errorReleaseKey(ctx.movable[0]!, ctx.versioned, null);
      for (const e of ctx.movable) moveFoldedError(this.deltas, e, to, present(e.code) ? ctx.calls.get(e.code) : undefined);
      ctx.movable = [];
    }
    const tr = this.deltas.toolRelease(r.tool, rk.release, rk.kind, r.started_at, r.run_id);
    tr.spans++;
    if (r.attempt === null || r.attempt <= 1) tr.firstAttempts++;
    if (r.code !== null && r.code !== "") {
      const code = r.code;
      const d = this.deltas.signature(code, r.tool, rk.release, rk.kind, r.started_at, r.run_id);
      d.spans++;
      if (setByRule(r.rule_id)) d.ruled++;
      // What a rule set is kept apart (basis `rules`): shown on the code's page, never judged as drift.
      const said = emitterSaid(r);
      const count = (dim: string, value: string | null, emitter = true) =>
        value !== null && value !== "" && this.deltas.count(code, r.tool, rk.release, emitter ? "attempts" : "rules", dim, value);
      count("error_class", r.error_class, said.errorClass);
      count("retryable", r.retryable === null ? null : retryableValue(r.retryable === 1), said.retryable);
      count("outcome", r.outcome, said.outcome);
      count("decision", r.decision);
      if (r.retry_after_ms !== null && r.retry_after_ms >= 0) count("retry_after", String(quantizeDelay(r.retry_after_ms)));
      this.trackCall(r.run_id, r.call_id, code, r.tool, rk, r.attempt, r.started_at, false);
    }
    // An ok first attempt cannot follow anything, so only later ones are looked up.
    if (r.outcome === "ok" && (r.attempt === null || r.attempt > 1)) {
      for (const call of this.context(r.run_id, r.call_id).calls.values()) {
        if (call.recovered === 1 || !isLater(r.attempt, r.started_at, call)) continue;
        call.recovered = 1;
        call.dirty = true;
        this.recoveredCall(call, r.started_at);
      }
    }
  }

  private error(e: ErrorScanRow): void {
    const ctx = present(e.tool_version) ? null : this.context(e.run_id, e.call_id);
    const rk = errorReleaseKey(e, ctx?.versioned ?? null, ctx?.sdkVersion ?? null);
    this.deltas.toolRelease(e.tool, rk.release, rk.kind, e.occurred_at, e.run_id).errors++;
    if (e.code === null || e.code === "") return;
    const code = e.code;
    const d = this.deltas.signature(code, e.tool, rk.release, rk.kind, e.occurred_at, e.run_id);
    d.errors++;
    if (setByRule(e.rule_id)) d.ruled++;
    for (const [dim, value] of errorDims(e, code)) this.deltas.count(code, e.tool, rk.release, "errors", dim, value);
    this.trackCall(e.run_id, e.call_id, code, e.tool, rk, null, e.occurred_at, true);
  }

  private async flush(): Promise<void> {
    const { tx, projectId, deltas } = this;
    const sql = driftSql(tx.dialect);
    const write = async (statement: string, rows: unknown[][]) => {
      if (rows.length > 0) await tx.run(statement, { project: projectId, rows: JSON.stringify(rows) });
    };

    const calls: unknown[][] = [];
    for (const [key, ctx] of this.byCall) {
      const [runId, callId] = splitKey(key) as [string, string];
      for (const c of ctx.calls.values()) if (c.dirty) calls.push([runId, callId, c.code, c.tool, c.release, c.attempt, c.started_at, c.recovered]);
    }
    await write(sql.putCalls, calls);

    const sigKeys = [...deltas.signatures.keys()].map(splitKey);
    const oldSigs = new Map<string, SignatureRow>();
    if (sigKeys.length > 0) {
      for (const s of await tx.all<SignatureRow>(sql.signaturesOf, { project: projectId, keys: JSON.stringify(sigKeys) })) {
        oldSigs.set([s.code, s.tool, s.release].join(SEP), s);
      }
    }
    const signatures: unknown[][] = [];
    for (const [key, d] of deltas.signatures) {
      const [code, tool, release] = splitKey(key) as [string, string, string];
      const old = oldSigs.get(key);
      signatures.push([
        code, tool, release, old?.release_kind ?? d.releaseKind,
        (old?.spans ?? 0) + d.spans, (old?.errors ?? 0) + d.errors, (old?.calls ?? 0) + d.calls, (old?.recovered ?? 0) + d.recovered,
        Math.min(old?.first_seen ?? d.firstSeen, d.firstSeen), Math.max(old?.last_seen ?? d.lastSeen, d.lastSeen),
        mergeExamples(old?.example_run_ids ?? "[]", d.runIds), Number(old?.ruled ?? 0) + d.ruled,
      ]);
    }
    await write(sql.putSignatures, signatures);

    const trKeys = [...deltas.toolReleases.keys()].map(splitKey);
    const oldTrs = new Map<string, ToolReleaseRow>();
    if (trKeys.length > 0) {
      for (const r of await tx.all<ToolReleaseRow>(sql.toolReleasesOf, { project: projectId, keys: JSON.stringify(trKeys) })) {
        oldTrs.set([r.tool, r.release].join(SEP), r);
      }
    }
    const toolReleases: unknown[][] = [];
    for (const [key, d] of deltas.toolReleases) {
      const [tool, release] = splitKey(key) as [string, string];
      const old = oldTrs.get(key);
      toolReleases.push([
        tool, release, d.releaseKind, (old?.first_attempts ?? 0) + d.firstAttempts, (old?.spans ?? 0) + d.spans,
        (old?.errors ?? 0) + d.errors, Math.min(old?.first_seen ?? d.firstSeen, d.firstSeen), Math.max(old?.last_seen ?? d.lastSeen, d.lastSeen),
        mergeExamples(old?.example_run_ids ?? "[]", d.runIds),
      ]);
    }
    await write(sql.putToolReleases, toolReleases);

    await write(sql.addCounts, [...deltas.counts].map(([key, n]) => [...splitKey(key), n]));
  }
}
