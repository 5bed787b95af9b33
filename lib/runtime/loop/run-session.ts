import type { RunRecord, RunState, ToolCallSpanRecord, ToolErrorRecord } from "../../contracts";
import { argsHash } from "../../contracts/args-hash";
import type { CallVerdict } from "../breaker/circuit-breaker";
import { DEFAULT_CODES } from "../errors/default-codes";
import { unmappedFailure } from "../errors/guards";
import { describeThrown } from "../map/describe";
import { isCancellation, linkSignals } from "../common/abort";
import { ToolArgumentValidationError } from "../errors/tool-argument-validation";
import type { ToolError } from "../errors/tool-error";
import { ToolNotFoundError } from "../errors/tool-not-found";
import { ToolNotPermittedError } from "../errors/tool-not-permitted";
import type { ToolRefusal } from "../errors/tool-refusal";
import { ToolResultError } from "../errors/tool-result-error";
import { ToolTimedOutError } from "../errors/tool-timed-out";
import { runRecord, spanRecord, wireText, type AttemptFacts, type RecordScope } from "../record/build";
import { safeRecord } from "../record/sink";
import { runAttempt, type BodyWatch } from "./attempt";
import { decide, type Verdict } from "./decide";
import type { CallRef } from "./events";
import type { CancelledResult, ToolCallRequest, ToolCallResult } from "./results";
import type { RunnerConfig } from "./runner-config";
import type { ToolDefinition } from "./tool-definition";
import { toldText } from "./told";
import { ToldLinks } from "./told-links";
import { UNNAMED_TOOL, readRequest, unnamedTool } from "./read-request";

/** Where a call got to, so a failure outside the loop's own handling reports the right attempt. */
interface Progress {
  attempt: number;
  startedAt: number | undefined;
}

/** What every span of one call carries besides its attempt: the arguments hash and the error it answers. */
interface CallFacts {
  argsHash: string | undefined;
  /** The call id of the surfaced error the call answers; null: it answers none. */
  afterError: string | null;
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

/** Options of one call. */
export interface CallOptions {
  /**
   * Cancels this call only: the attempt in flight is aborted (its body's `signal` fires), a
   * backoff is cut short, and the call ends `cancelled`. The run goes on; other calls are
   * untouched. This is where a framework's per-call signal goes (the AI SDK's `abortSignal`).
   */
  signal?: AbortSignal;
}

/** The signals one call's attempts obey: the run's alone, or the run's linked with the call's own. */
interface CallScope {
  readonly signal: AbortSignal;
  readonly onCancel: (fn: () => void) => () => void;
  /** Why the call was cancelled, once `signal` has aborted. */
  reason(): string;
}

const breakerVerdict = (error: ToolError): CallVerdict => {
  switch (error.errorClass) {
    case "ToolFailure":
    case "ToolTimedOutError":
      return "failure";
    case "ToolRefusal":
    case "ToolResultError":
      return "success"; // the upstream answered; what it said is not an outage
    default:
      return "neutral";
  }
};

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
  private heldSpans = 0;
  private drained: (() => void)[] = [];
  private readonly links = new ToldLinks();
  private readonly callFacts = new WeakMap<CallRef, CallFacts>();

  constructor(
    private readonly cfg: RunnerConfig,
    options: RunOptions = {},
  ) {
    this.runId = options.runId ?? cfg.ids("run");
    this.startedAt = cfg.clock.now();
    this.deadlineAt = options.deadlineAt ?? (options.timeoutMs !== undefined ? this.startedAt + options.timeoutMs : undefined);
    this.scope = { runId: this.runId, traceId: cfg.ids("trace"), release: cfg.release, environment: cfg.environment };
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
      if (this.controller.signal.aborted) return this.cancelled(ref, 0, undefined, "cancelled by the caller");
      const callSignal = readSignal(options);
      if (callSignal?.aborted) return this.cancelled(ref, 0, undefined, callCancelReason(callSignal));
      // Only the hash of the arguments is recorded, never the arguments; undecodable ones hash as unknown.
      this.callFacts.set(ref, {
        argsHash: read.argumentsError === undefined ? argsHash(read.args) : undefined,
        afterError: this.links.link(ref.tool, read.afterError),
      });
      def = read.tool === undefined ? undefined : this.cfg.tools.get(read.tool);
      const pre = read.tool === undefined ? unnamedTool(read.rawTool) : this.preDispatch(read.tool, def, read.args, read.argumentsError);
      if (pre || !def) {
        const error = pre ?? new ToolNotFoundError(ref.tool);
        const now = this.cfg.clock.now();
        return this.failed(ref, def, error, 1, now, now, error instanceof ToolNotPermittedError ? false : undefined);
      }
      scope = callSignal ? this.callScope(callSignal) : undefined;
      return await this.attempts(ref, def, read.args, progress, scope ?? this.runScope);
    } catch (error) {
      return this.internalFailure(ref, def, error, progress);
    } finally {
      scope?.detach();
    }
  }

  /**
   * The run's signal linked with one call's. Built only for calls that bring a signal, so the
   * common path keeps the single fanned-out listener of the run.
   */
  private callScope(callSignal: AbortSignal): CallScope & { detach(): void } {
    const linked = linkSignals(this.controller.signal, callSignal);
    const signal = linked.controller.signal;
    return {
      signal,
      onCancel: (fn) => {
        signal.addEventListener("abort", fn, { once: true });
        return () => signal.removeEventListener("abort", fn);
      },
      // The run's reason wins: a run that ended or was cancelled explains every call in it.
      reason: () => (this.controller.signal.aborted ? this.cancelReason() : callCancelReason(callSignal)),
      detach: linked.detach,
    };
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
    if (this.heldSpans === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.drained.push(resolve));
  }

  private preDispatch(tool: string, def: ToolDefinition | undefined, args: unknown, argumentsError: string | undefined): ToolError | undefined {
    const { permitted, agent, tools } = this.cfg;
    if (permitted && !permitted.has(tool)) return new ToolNotPermittedError(tool, { agent, permitted: [...permitted] });
    if (!def) return new ToolNotFoundError(tool, { known: [...tools.keys()] });
    if (argumentsError !== undefined) return new ToolArgumentValidationError(tool, { message: argumentsError, problems: { "(arguments)": argumentsError } });
    if (!def.validate) return undefined;
    try {
      const problems = def.validate(args);
      return problems && Object.keys(problems).length > 0 ? new ToolArgumentValidationError(tool, { problems }) : undefined;
    } catch (error) {
      return new ToolArgumentValidationError(tool, { message: "the argument check failed", cause: error });
    }
  }

  private async attempts(ref: CallRef, def: ToolDefinition, args: unknown, progress: Progress, scope: CallScope): Promise<ToolCallResult> {
    const { clock, scheduler } = this.cfg;
    const { signal } = scope;
    for (let attempt = 1; ; attempt++) {
      const startedAt = clock.now();
      progress.attempt = attempt;
      progress.startedAt = startedAt;
      let error: ToolError | undefined = def.breaker?.admit(ref.tool);
      let body: BodyWatch | undefined;
      if (!error) {
        // Whatever happens below, an admitted call is reported to its breaker exactly once; a
        // half-open circuit whose probe went unreported would turn every later call away.
        let reported = false;
        const report = (verdict: CallVerdict, failure?: ToolError) => {
          if (reported) return;
          reported = true;
          def.breaker?.record(verdict, failure);
        };
        try {
          const remainingMs = this.deadlineAt === undefined ? undefined : this.deadlineAt - startedAt;
          const out = await runAttempt((s) => def.execute(args, { runId: this.runId, callId: ref.callId, attempt, signal: s }), {
            signal,
            onCancel: scope.onCancel,
            timeoutMs: def.timeoutMs,
            remainingMs,
            scheduler,
          });
          body = out.body;
          if (out.kind === "ok") {
            const violation = this.checkResult(def, out.value);
            if (violation === undefined) {
              report("success");
              return this.succeeded(ref, def, attempt, startedAt, out.value, body);
            }
            error = new ToolResultError(ref.tool, { violation });
          } else if (out.kind === "timeout") {
            error = new ToolTimedOutError(ref.tool, { timeoutMs: def.timeoutMs ?? 0 });
          } else if (out.kind === "deadline") {
            report("neutral");
            return this.cancelled(ref, attempt, def, "the run's deadline passed", startedAt, true, body);
          } else if (out.kind === "cancelled" || isCancellation(out.error, signal)) {
            report("neutral");
            return this.cancelled(ref, attempt, def, scope.reason(), startedAt, false, body);
          } else {
            error = this.classify(def, ref.tool, out.error);
          }
          report(breakerVerdict(error), error);
        } finally {
          report("failure");
        }
      }
      const verdict = this.decideFor(ref.tool, def, error, attempt);
      if (verdict.decision !== "retried") return this.failed(ref, def, error, attempt, startedAt, clock.now(), undefined, verdict, body);
      this.recordSpan(ref, def, attempt, startedAt, clock.now(), error, verdict, {}, body);
      this.retriesByTool.set(ref.tool, this.retriesUsed(ref.tool) + 1);
      if (this.cfg.emit.retry.size) this.cfg.emit.retry.emit({ ...ref, attempt, error, backoffMs: verdict.backoffMs });
      try {
        await this.cfg.sleep(verdict.backoffMs, signal);
      } catch {
        return this.cancelled(ref, attempt, def, scope.reason());
      }
    }
  }

  /** The tool's (or runner's) error map, fenced: a map that throws yields `unmapped_failure`. */
  private classify(def: ToolDefinition, tool: string, thrown: unknown): ToolError {
    try {
      return (def.errorMap ?? this.cfg.errorMap).classify(thrown, { tool });
    } catch {
      return unmappedFailure(tool, DEFAULT_CODES.unmapped, describeThrown(thrown), thrown);
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
      return this.failed(safeRef, def, error, progress.attempt, progress.startedAt ?? now, now);
    } catch {
      const told = wireText(`error: ${error.code}: ${error.detail}\nretryable: no (repeating the same call will not help)`);
      return { status: "error", ...safeRef, attempts: progress.attempt, error, decision: "surfaced", told };
    }
  }

  private checkResult(def: ToolDefinition, value: unknown): string | undefined {
    if (!def.checkResult) return undefined;
    try {
      return def.checkResult(value);
    } catch {
      return "the result check itself failed";
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

  private recordSpan(
    ref: CallRef,
    def: ToolDefinition | undefined,
    attempt: number,
    startedAt: number,
    endedAt: number,
    error: ToolError | undefined,
    verdict: Verdict | undefined,
    extra: Partial<AttemptFacts> = {},
    body?: BodyWatch,
  ): void {
    if (!this.cfg.sink) return;
    const facts = this.callFacts.get(ref);
    this.emitSpan(
      spanRecord(this.scope, {
        id: this.cfg.ids("span"),
        callId: ref.callId,
        tool: ref.tool,
        toolVersion: def?.version,
        attempt,
        startedAt,
        endedAt,
        outcome: error ? error.outcome : "ok",
        error,
        decision: verdict?.decision,
        retryAfterMs: verdict?.retryAfterMs,
        backoffMs: verdict?.decision === "retried" ? verdict.backoffMs : undefined,
        argsHash: facts?.argsHash,
        afterError: facts?.afterError,
        ...extra,
      }),
      body,
    );
  }

  /**
   * Records a span once its `abandoned` flag is known. No body ran: no flag. The body has settled:
   * `false`, at once. Otherwise the span waits, off the loop's path, for the body to settle
   * (`false`) or for `abandonGraceMs` to pass (`true`), whichever comes first; it is recorded once.
   */
  private emitSpan(span: ToolCallSpanRecord, body: BodyWatch | undefined): void {
    if (!body || body.settled()) {
      if (body) span.abandoned = false;
      return safeRecord(this.cfg.sink, span);
    }
    this.heldSpans++;
    let done = false;
    // A holder, not a const: a scheduler may run a 0 ms grace synchronously, before schedule() returns.
    const timer: { cancel?: () => void } = {};
    const emit = (abandoned: boolean) => {
      if (done) return;
      done = true;
      timer.cancel?.();
      span.abandoned = abandoned;
      safeRecord(this.cfg.sink, span);
      if (--this.heldSpans === 0) this.drained.splice(0).forEach((resolve) => resolve());
    };
    timer.cancel = this.cfg.scheduler.schedule(() => emit(true), this.cfg.abandonGraceMs);
    void body.done.then(() => emit(false));
  }

  private succeeded(ref: CallRef, def: ToolDefinition, attempt: number, startedAt: number, value: unknown, body?: BodyWatch): ToolCallResult {
    const endedAt = this.cfg.clock.now();
    this.recordSpan(ref, def, attempt, startedAt, endedAt, undefined, undefined, {}, body);
    if (this.cfg.emit.success.size) this.cfg.emit.success.emit({ ...ref, attempts: attempt, durationMs: endedAt - startedAt });
    return { status: "ok", ...ref, attempts: attempt, value };
  }

  private failed(
    ref: CallRef,
    def: ToolDefinition | undefined,
    error: ToolError,
    attempt: number,
    startedAt: number,
    endedAt: number,
    permitted?: boolean,
    given?: Verdict,
    body?: BodyWatch,
  ): ToolCallResult {
    const verdict = given ?? this.decideFor(ref.tool, def, error, attempt);
    if (verdict.decision === "retried") throw new Error("unreachable: a retry verdict reached failed()");
    this.recordSpan(ref, def, attempt, startedAt, endedAt, error, verdict, { permitted }, body);
    const told = toldText(error, { stop: verdict.stop, attempts: attempt, retry: this.cfg.retryByTool.get(ref.tool) ?? this.cfg.retry, retryAfterMs: verdict.retryAfterMs });
    const failsRun = verdict.decision !== "delivered" && this.cfg.policy === "fail_run";
    const record: ToolErrorRecord = {
      type: "tool_error",
      id: this.cfg.ids("record"),
      run_id: this.runId,
      call_id: ref.callId,
      tool: ref.tool,
      ...(def?.version ? { tool_version: def.version } : {}),
      code: error.code,
      error_class: error.errorClass,
      retryable: error.retryable,
      attempts: attempt,
      decision: verdict.decision,
      // Under fail_run the run ends here and the model never reads the text: the record says so
      // with null rather than claiming a message that was never delivered.
      told: failsRun ? null : told,
      occurred_at: Math.round(endedAt),
      ...(this.scope.release ? { release: this.scope.release } : {}),
      ...(this.scope.environment ? { environment: this.scope.environment } : {}),
    };
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

  private cancelled(
    ref: CallRef,
    attempt: number,
    def: ToolDefinition | undefined,
    reason: string,
    startedAt?: number,
    deadline = false,
    body?: BodyWatch,
  ): CancelledResult {
    if (startedAt !== undefined) {
      this.recordSpan(
        ref,
        def,
        attempt,
        startedAt,
        this.cfg.clock.now(),
        undefined,
        undefined,
        { outcome: "cancelled", decision: "cancelled", message: reason },
        body,
      );
    }
    if (deadline || this.controller.signal.aborted) this.finish("cancelled", deadline ? "deadline exceeded" : reason);
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

/**
 * The call's signal, read defensively: anything without an `aborted` flag and `addEventListener`
 * is ignored. Checked by shape, not `instanceof`, so a signal from another realm or polyfill works.
 */
function readSignal(options: CallOptions): AbortSignal | undefined {
  try {
    const signal = (options as { signal?: unknown } | undefined)?.signal as Partial<AbortSignal> | null | undefined;
    return typeof signal === "object" && signal !== null && typeof signal.aborted === "boolean" && typeof signal.addEventListener === "function"
      ? (signal as AbortSignal)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What the model and the span are told when a call's own signal cancelled it. */
function callCancelReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return typeof reason === "string" && reason.trim() !== "" ? reason : "the call was cancelled by the caller";
}
