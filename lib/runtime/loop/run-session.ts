import type { RunRecord, RunState } from "../../contracts";
import { argsHash } from "../../contracts/args-hash";
import { DEFAULT_CODES } from "../errors/default-codes";
import { unmappedFailure } from "../errors/guards";
import { describeThrown } from "../map/describe";
import { linkSignals } from "../common/abort";
import type { ToolError } from "../errors/tool-error";
import { toldWording } from "../experiments/told-wording";
import { ToolNotFoundError } from "../errors/tool-not-found";
import { ToolNotPermittedError } from "../errors/tool-not-permitted";
import type { ToolRefusal } from "../errors/tool-refusal";
import { runRecord, toolErrorRecord, wireText, type RecordScope } from "../record/build";
import { safeRecord } from "../record/sink";
import type { BodyWatch } from "./attempt";
import { callCancelReason, linkedCallScope, readSignal, type CallOptions, type CallScope } from "./call-scope";
import { decide, type Verdict } from "./decide";
import type { CallRef } from "./events";
import type { CancelledResult, ToolCallRequest, ToolCallResult } from "./results";
import type { RunnerConfig } from "./runner-config";
import type { ToolDefinition } from "./tool-definition";
import { toldText } from "./told";
import { ToldLinks } from "./told-links";
import { UNNAMED_TOOL, readRequest, unnamedTool } from "./read-request";
import { preDispatchError } from "./tool-checks";
import { tryOnce } from "./try-once";
import { SpanEmitter, type CallFacts, type SpanInput } from "./span-emitter";

export type { CallOptions } from "./call-scope";

/** Where a call got to, so a failure outside the loop's own handling reports the right attempt. */
interface Progress {
  attempt: number;
  startedAt: number | undefined;
}

/** Options of one run. */
export interface RunOptions {
  /** Defaults to a random 32-hex id. */
  runId?: string;
  /** Cancels the run: in-flight attempts are aborted and the run ends `cancelled`. */
  signal?: AbortSignal;
  /** Absolute deadline, epoch ms. No attempt or backoff is scheduled past it. */
  deadlineAt?: number;
  /** Relative deadline from the run's start; ignored when `deadlineAt` is set. */
  timeoutMs?: number;
}

/** A call that passed its checks, about to run its attempts. */
interface Dispatched {
  ref: CallRef;
  def: ToolDefinition;
  args: unknown;
  progress: Progress;
  scope: CallScope;
}

/** How one call ended well. */
interface Success {
  ref: CallRef;
  def: ToolDefinition;
  attempt: number;
  startedAt: number;
  value: unknown;
  body: BodyWatch | undefined;
}

/** How one call ended in failure: the attempt, its times and, when already decided, its verdict. */
interface Failure {
  ref: CallRef;
  def: ToolDefinition | undefined;
  error: ToolError;
  attempt: number;
  startedAt: number;
  endedAt: number;
  /** Set on a span refused by the allowlist. */
  permitted?: boolean | undefined;
  verdict?: Verdict | undefined;
  body?: BodyWatch | undefined;
}

/** How one call was cancelled; `startedAt` is set when an attempt was running (it gets a span). */
interface Cancellation {
  ref: CallRef;
  def: ToolDefinition | undefined;
  attempt: number;
  reason: string;
  startedAt?: number | undefined;
  /** The run's deadline passed (the run ends `cancelled` with "deadline exceeded"). */
  deadline?: boolean | undefined;
  body?: BodyWatch | undefined;
}

/**
 * One agent run: executes its tool calls, decides every outcome by the decision table, and
 * records spans, tool errors and finally the run. Create it with `ToolRunner.startRun()`.
 */
export class RunSession {
  /** The run's id. */
  readonly runId: string;
  /** Start time, epoch ms. */
  readonly startedAt: number;
  /** Absolute deadline, epoch ms, when the run has one. */
  readonly deadlineAt: number | undefined;
  private readonly scope: RecordScope;
  private readonly controller: AbortController;
  private readonly detach: () => void;
  private readonly retriesByTool = new Map<string, number>();
  private readonly cancelWatchers = new Set<() => void>();
  /** The run's own signal, shared by every call that brings none of its own (no per-call cost). */
  private readonly runScope: CallScope;
  private current: RunState = "running";
  private final: RunRecord | undefined;
  private readonly spans: SpanEmitter;
  private readonly links = new ToldLinks();
  /** Facts of the calls in flight (a Map, not a WeakMap: entries leave when the call ends, and ephemerons cost the GC). */
  private readonly callFacts = new Map<CallRef, CallFacts>();

  constructor(
    private readonly cfg: RunnerConfig,
    options: RunOptions = {},
  ) {
    this.runId = options.runId ?? cfg.ids("run");
    this.startedAt = cfg.clock.now();
    this.deadlineAt = options.deadlineAt ?? (options.timeoutMs !== undefined ? this.startedAt + options.timeoutMs : undefined);
    this.scope = { runId: this.runId, traceId: cfg.ids("trace"), release: cfg.release, environment: cfg.environment };
    this.spans = new SpanEmitter({ scope: this.scope, sink: cfg.sink, ids: cfg.ids, scheduler: cfg.scheduler, abandonGraceMs: cfg.abandonGraceMs });
    const linked = linkSignals(options.signal);
    this.controller = linked.controller;
    this.detach = linked.detach;
    this.controller.signal.addEventListener("abort", () => this.cancelWatchers.forEach((fn) => fn()), { once: true });
    this.runScope = { signal: this.controller.signal, onCancel: this.watchCancel, reason: () => this.cancelReason() };
  }

  private readonly watchCancel = (fn: () => void): (() => void) => {
    this.cancelWatchers.add(fn);
    return () => void this.cancelWatchers.delete(fn);
  };

  /** `running` until the run ends; then `completed`, `failed` or `cancelled`. */
  get state(): RunState {
    return this.current;
  }

  /**
   * Declares the tool uses of one model turn (the provider's `tool_use` / `tool_call` ids), so the
   * run can count those that never get a result: every declared id that no `call()` ran by the end
   * of the run is reported as `unanswered_tool_uses` on the run record. Providers require an answer
   * to every tool use; the adapters fill in a missing one with an error, and this says it happened.
   */
  modelTurn(toolUseIds: readonly string[]): void {
    this.links.declareTurn(toolUseIds);
  }

  /** Declared tool uses without a result so far; undefined until `modelTurn` is first called. */
  get unansweredToolUses(): number | undefined {
    return this.links.unanswered();
  }

  /** Retries each tool has consumed in this run (the `maxToolAttempts` budget). */
  retriesUsed(tool: string): number {
    return this.retriesByTool.get(tool) ?? 0;
  }

  /**
   * Runs several calls of one model turn concurrently; results keep the request order.
   * `options.signal` cancels every call of the turn, but not the run (see {@link CallOptions}).
   */
  callAll(requests: readonly ToolCallRequest[], options: CallOptions = {}): Promise<ToolCallResult[]> {
    // Every call of the turn gets a result, even one a sibling's failure leaves undispatched: its tool
    // use is answered before the first call can end the run (and write the unanswered count).
    for (const r of requests) {
      const callId = readRequest(r).callId;
      if (callId !== undefined) this.links.answer(callId);
    }
    return Promise.all(requests.map((r) => this.call(r, options)));
  }

  /**
   * Runs one tool call to its end. Never rejects: every ending is a {@link ToolCallResult}.
   * `options.signal` cancels this call alone (see {@link CallOptions}).
   */
  async call(request: ToolCallRequest, options: CallOptions = {}): Promise<ToolCallResult> {
    const progress: Progress = { attempt: 1, startedAt: undefined };
    let ref: CallRef | undefined;
    let def: ToolDefinition | undefined;
    let scope: (CallScope & { detach(): void }) | undefined;
    try {
      const read = readRequest(request);
      ref = { runId: this.runId, callId: read.callId ?? this.cfg.ids("call"), tool: read.tool ?? UNNAMED_TOOL };
      this.links.answer(ref.callId);
      if (this.current !== "running") return this.notDispatched(ref);
      if (this.controller.signal.aborted) return this.cancelled({ ref, def: undefined, attempt: 0, reason: "cancelled by the caller" });
      const callSignal = readSignal(options);
      if (callSignal?.aborted) return this.cancelled({ ref, def: undefined, attempt: 0, reason: callCancelReason(callSignal) });
      const afterError = this.links.link(ref.tool, read.afterError);
      // Only the hash of the arguments is recorded, never the arguments; undecodable ones hash as
      // unknown. Hashed at the start, before a body can change them, and only when spans are kept.
      if (this.spans.active) this.callFacts.set(ref, { argsHash: read.argumentsError === undefined ? argsHash(read.args) : undefined, afterError });
      def = read.tool === undefined ? undefined : this.cfg.tools.get(read.tool);
      const pre = read.tool === undefined ? unnamedTool(read.rawTool) : preDispatchError(this.cfg, { tool: read.tool, def, args: read.args, argumentsError: read.argumentsError });
      if (pre || !def) {
        const error = pre ?? new ToolNotFoundError(ref.tool);
        const now = this.cfg.clock.now();
        return this.failed({ ref, def, error, attempt: 1, startedAt: now, endedAt: now, permitted: error instanceof ToolNotPermittedError ? false : undefined });
      }
      scope = callSignal ? linkedCallScope(this.controller.signal, callSignal, () => this.cancelReason()) : undefined;
      return await this.attempts({ ref, def, args: read.args, progress, scope: scope ?? this.runScope });
    } catch (error) {
      return this.internalFailure(ref, def, error, progress);
    } finally {
      scope?.detach();
      if (ref) this.callFacts.delete(ref);
    }
  }

  /**
   * Ends the run and records it. Idempotent: a run already ended by `fail_run`, cancellation or
   * its deadline keeps that ending.
   */
  end(state: "completed" | "failed" = "completed", error?: string): RunRecord {
    if (this.controller.signal.aborted && this.current === "running") this.finish("cancelled", "cancelled by the caller");
    this.finish(state, error);
    return this.final!;
  }

  /**
   * Resolves once every span this run holds back (waiting to learn whether an interrupted tool
   * body was abandoned, at most `abandonGraceMs`) has been recorded. Await it after `end()` and
   * before shutting the exporter down, or those spans arrive after the exporter closed.
   */
  drain(): Promise<void> {
    return this.spans.drain();
  }

  private async attempts(call: Dispatched): Promise<ToolCallResult> {
    const { ref, def, args, progress, scope } = call;
    const { clock, scheduler } = this.cfg;
    const { signal } = scope;
    for (let attempt = 1; ; attempt++) {
      const startedAt = clock.now();
      progress.attempt = attempt;
      progress.startedAt = startedAt;
      const remainingMs = this.deadlineAt === undefined ? undefined : this.deadlineAt - startedAt;
      const end = await tryOnce({ ref, def, args, attempt, scope, remainingMs, scheduler, errorMap: this.cfg.errorMap });
      const { body } = end;
      if (end.kind === "ok") return this.succeeded({ ref, def, attempt, startedAt, value: end.value, body });
      if (end.kind === "cancelled") {
        return end.deadline
          ? this.cancelled({ ref, def, attempt, reason: "the run's deadline passed", startedAt, deadline: true, body })
          : this.cancelled({ ref, def, attempt, reason: scope.reason(), startedAt, body });
      }
      const { error } = end;
      const verdict = this.decideFor(ref.tool, def, error, attempt);
      if (verdict.decision !== "retried") return this.failed({ ref, def, error, attempt, startedAt, endedAt: clock.now(), verdict, body });
      this.recordSpan({ ref, def, attempt, startedAt, endedAt: clock.now(), error, verdict, body });
      this.retriesByTool.set(ref.tool, this.retriesUsed(ref.tool) + 1);
      if (this.cfg.emit.retry.size) this.cfg.emit.retry.emit({ ...ref, attempt, error, backoffMs: verdict.backoffMs });
      try {
        await this.cfg.sleep(verdict.backoffMs, signal);
      } catch {
        return this.cancelled({ ref, def, attempt, reason: scope.reason() });
      }
    }
  }

  /**
   * Last line of defence: something in this library, or an author hook it did not fence, threw.
   * The agent still gets an answer for the attempt that was really running, never a rejection.
   */
  private internalFailure(ref: CallRef | undefined, def: ToolDefinition | undefined, thrown: unknown, progress: Progress): ToolCallResult {
    const safeRef: CallRef = ref ?? { runId: this.runId, callId: `call_${this.runId.slice(0, 16)}_${progress.attempt}`, tool: UNNAMED_TOOL };
    const error = unmappedFailure(safeRef.tool, DEFAULT_CODES.unmapped, describeThrown(thrown), thrown);
    const now = this.cfg.clock.now();
    try {
      return this.failed({ ref: safeRef, def, error, attempt: progress.attempt, startedAt: progress.startedAt ?? now, endedAt: now });
    } catch {
      const told = wireText(`error: ${error.code}: ${error.detail}\nretryable: no (repeating the same call will not help)`);
      return { status: "error", ...safeRef, attempts: progress.attempt, error, decision: "surfaced", told };
    }
  }

  private decideFor(tool: string, def: ToolDefinition | undefined, error: ToolError, attempt: number): Verdict {
    return decide({
      error,
      idempotent: def?.idempotent === true,
      attempt,
      toolRetriesUsed: this.retriesUsed(tool),
      maxToolAttempts: this.cfg.maxToolAttempts,
      retry: this.cfg.retryByTool.get(tool) ?? this.cfg.retry,
      now: this.cfg.clock.now(),
      deadlineAt: this.deadlineAt,
      policy: this.cfg.policy,
      random: this.cfg.random,
    });
  }

  private recordSpan(input: SpanInput): void {
    if (!this.spans.active) return;
    input.facts = this.callFacts.get(input.ref);
    this.spans.emit(input);
  }

  private succeeded(o: Success): ToolCallResult {
    const { ref, attempt, startedAt } = o;
    const endedAt = this.cfg.clock.now();
    this.recordSpan({ ref, def: o.def, attempt, startedAt, endedAt, body: o.body });
    if (this.cfg.emit.success.size) this.cfg.emit.success.emit({ ...ref, attempts: attempt, durationMs: endedAt - startedAt });
    return { status: "ok", ...ref, attempts: attempt, value: o.value };
  }

  private failed(f: Failure): ToolCallResult {
    const { ref, def, error, attempt } = f;
    const verdict = f.verdict ?? this.decideFor(ref.tool, def, error, attempt);
    if (verdict.decision === "retried") throw new Error("unreachable: a retry verdict reached failed()");
    this.recordSpan({ ref, def, attempt, startedAt: f.startedAt, endedAt: f.endedAt, error, verdict, extra: { permitted: f.permitted }, body: f.body });
    const failsRun = verdict.decision !== "delivered" && this.cfg.policy === "fail_run";
    // Only a text the model reads takes part in an experiment: under fail_run nobody is told.
    const wording = failsRun ? undefined : toldWording(this.cfg.wordings, { tool: ref.tool, runId: this.runId, error });
    const retry = this.cfg.retryByTool.get(ref.tool) ?? this.cfg.retry;
    const told = toldText(error, { stop: verdict.stop, attempts: attempt, retry, retryAfterMs: verdict.retryAfterMs, wording: wording?.text });
    const record = toolErrorRecord(this.scope, {
      id: this.cfg.ids("record"),
      callId: ref.callId,
      tool: ref.tool,
      toolVersion: def?.version,
      error,
      attempts: attempt,
      decision: verdict.decision,
      // Under fail_run the run ends here and the model never reads the text: the record says so
      // with null rather than claiming a message that was never delivered.
      told: failsRun ? null : told,
      occurredAt: f.endedAt,
      experiment: wording?.experiment,
      variant: wording?.variant,
    });
    safeRecord(this.cfg.sink, record);
    // The model reads this text: the calls that follow may be its answer to it.
    if (!failsRun) this.links.surfaced(ref.callId, ref.tool);
    if (this.cfg.emit.giveUp.size) this.cfg.emit.giveUp.emit({ ...ref, attempts: attempt, error, decision: verdict.decision, told });
    if (verdict.decision === "delivered") {
      return { status: "declined", ...ref, attempts: attempt, error: error as ToolRefusal, decision: "delivered", told };
    }
    if (failsRun) {
      this.finish("failed", `tool '${ref.tool}' failed: ${told}`);
    }
    return { status: "error", ...ref, attempts: attempt, error, decision: verdict.decision, told };
  }

  private cancelReason(): string {
    const reason: unknown = this.controller.signal.reason;
    if (typeof reason === "string") return reason;
    return this.current === "running" ? "cancelled by the caller" : `the run already ended (${this.current})`;
  }

  private cancelled(c: Cancellation): CancelledResult {
    const { ref, attempt, reason } = c;
    if (c.startedAt !== undefined) {
      const extra = { outcome: "cancelled", decision: "cancelled", message: reason } as const;
      this.recordSpan({ ref, def: c.def, attempt, startedAt: c.startedAt, endedAt: this.cfg.clock.now(), extra, body: c.body });
    }
    if (c.deadline || this.controller.signal.aborted) this.finish("cancelled", c.deadline ? "deadline exceeded" : reason);
    if (this.cfg.emit.cancel.size) this.cfg.emit.cancel.emit({ ...ref, attempts: attempt, reason });
    return { status: "cancelled", ...ref, attempts: attempt, decision: "cancelled", told: wireText(`error: cancelled: ${reason}`) };
  }

  private notDispatched(ref: CallRef): CancelledResult {
    const told = `error: never dispatched: the run already ended (${this.current})`;
    return { status: "cancelled", ...ref, attempts: 0, decision: "cancelled", told };
  }

  private finish(state: RunState, error?: string): void {
    if (this.final) return;
    this.current = state;
    this.final = runRecord(this.scope, {
      agent: this.cfg.agent,
      agent_version: this.cfg.agentVersion,
      started_at: this.startedAt,
      ended_at: Math.max(this.startedAt, this.cfg.clock.now()),
      state,
      deadline_at: this.deadlineAt,
      max_tool_attempts: this.cfg.maxToolAttempts >= 1 ? this.cfg.maxToolAttempts : undefined,
      error,
      unanswered_tool_uses: this.links.unanswered(),
    });
    this.detach();
    // Siblings still in flight are cancelled: the run they belong to is over.
    if (!this.controller.signal.aborted) this.controller.abort(`the run already ended (${state})`);
    safeRecord(this.cfg.sink, this.final);
    if (this.cfg.emit.runEnd.size) this.cfg.emit.runEnd.emit({ runId: this.runId, state, ...(error ? { error } : {}) });
  }
}
