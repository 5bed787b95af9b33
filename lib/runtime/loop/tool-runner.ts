import { DEFAULT_MAX_TOOL_ATTEMPTS } from "../../contracts/runtime-defaults";
import { EventEmitter, type Event, type ListenerErrorHandler } from "../common/event";
import { randomIds, type IdSource } from "../common/ids";
import type { WordingSource } from "../experiments/wording-set";
import { sleepOn, systemClock, systemScheduler, systemSleep, type Clock, type Random, type Scheduler, type Sleep } from "../common/time";
import { ToolErrorMap } from "../map/tool-error-map";
import type { RecordSink } from "../record/sink";
import { retryOptions, type RetryOptions } from "../retry/retry-options";
import type { FailurePolicy } from "./decide";
import type { CancelEvent, GiveUpEvent, RetryEvent, RunEndEvent, SuccessEvent } from "./events";
import type { RunnerConfig } from "./runner-config";
import { RunSession, type RunOptions } from "./run-session";
import type { ToolDefinition } from "./tool-definition";

/** Default of {@link ToolRunnerOptions.maxToolAttempts} (shared with the dashboard, which assumes it). */
export { DEFAULT_MAX_TOOL_ATTEMPTS };

/** Options of {@link ToolRunner}. */
export interface ToolRunnerOptions {
  /** Agent name (`agent` on the run record). */
  agent: string;
  /** Agent version (`agent_version`). */
  agentVersion?: string;
  /** Release stamped on every record (overrides the exporter's resource). */
  release?: string;
  /** Environment stamped on every record, e.g. `production`. */
  environment?: string;
  /** The tools this runner can call, by unique name. */
  tools: readonly ToolDefinition[];
  /** Allowlist; a call outside it is refused with {@link ToolNotPermittedError}. Absent: all tools. */
  permitted?: readonly string[];
  /** Retry settings for every tool (each tool may override them). Default: `DEFAULT_RETRY`. */
  retry?: Partial<RetryOptions>;
  /** Retries one tool may consume across a whole run, all its calls together. Default 12. */
  maxToolAttempts?: number;
  /** What a failed call does to the run. Default `surface_to_model`. */
  onToolError?: FailurePolicy;
  /** Translation for tools without their own `errorMap`. Default: everything untyped is `unmapped_failure`. */
  errorMap?: ToolErrorMap;
  /**
   * Told wordings from Faultline: running experiments and promoted winners for this project
   * ({@link RemoteWordings}, or a fixed {@link WordingSet}). Absent: only the experiments declared on
   * rules and typed errors apply; with neither, no experiment runs.
   */
  wordings?: WordingSource;
  /** Where records go (an exporter, a {@link MemorySink}). Absent: nothing is recorded. */
  sink?: RecordSink;
  /** Time source for records, deadlines and decisions. Default: the wall clock. */
  clock?: Clock;
  /** Timers for timeouts, deadlines and the abandon grace period. */
  scheduler?: Scheduler;
  /** Backoff sleep. Default: a sleep on `scheduler`. */
  sleep?: Sleep;
  /** Jitter source. */
  random?: Random;
  /** Id generator for runs, traces, spans, calls and records. Default: random hex. */
  ids?: IdSource;
  /**
   * How long, after an attempt was interrupted (tool timeout, run cancellation or deadline), the
   * loop waits on `scheduler` for the aborted body to settle before the span says
   * `abandoned: true`. Only that span's emission waits; the loop moves on at once. Default 100 ms.
   */
  abandonGraceMs?: number;
  /**
   * Receives exceptions thrown by `onRetry`, `onGiveUp`, `onSuccess`, `onCancel` and `onRunEnd`
   * listeners, with the event's name. They are swallowed either way and counted in
   * {@link ToolRunner.listenerErrors}.
   */
  onListenerError?: ListenerErrorHandler;
}

/** Default of {@link ToolRunnerOptions.abandonGraceMs}. */
export const DEFAULT_ABANDON_GRACE_MS = 100;

/**
 * Executes tool calls for agent runs with typed errors, the decision table, retries with full
 * jitter, per-tool budgets, deadlines, cancellation and recording. One runner serves many runs.
 */
export class ToolRunner {
  private readonly cfg: RunnerConfig;

  /** A failed attempt will be retried after `backoffMs`. */
  readonly onRetry: Event<RetryEvent>;
  /** A call stopped with an error or refusal. */
  readonly onGiveUp: Event<GiveUpEvent>;
  /** A call returned a value. */
  readonly onSuccess: Event<SuccessEvent>;
  /** A call was cancelled. */
  readonly onCancel: Event<CancelEvent>;
  /** A run ended. */
  readonly onRunEnd: Event<RunEndEvent>;

  constructor(options: ToolRunnerOptions) {
    const maxToolAttempts = options.maxToolAttempts ?? DEFAULT_MAX_TOOL_ATTEMPTS;
    if (!Number.isInteger(maxToolAttempts) || maxToolAttempts < 0 || maxToolAttempts > 1000) {
      throw new RangeError("maxToolAttempts must be an integer in 0..1000");
    }
    const retry = retryOptions(options.retry);
    const tools = new Map<string, ToolDefinition>();
    const retryByTool = new Map<string, RetryOptions>();
    for (const tool of options.tools) {
      if (tools.has(tool.name)) throw new TypeError(`two tools are named '${tool.name}'`);
      tools.set(tool.name, tool);
      if (tool.retry) retryByTool.set(tool.name, retryOptions({ ...retry, ...tool.retry }));
    }
    const scheduler = options.scheduler ?? systemScheduler;
    const abandonGraceMs = options.abandonGraceMs ?? DEFAULT_ABANDON_GRACE_MS;
    if (!Number.isFinite(abandonGraceMs) || abandonGraceMs < 0) throw new RangeError("abandonGraceMs must be a finite number >= 0");
    const report = options.onListenerError;
    const emit = {
      retry: new EventEmitter<RetryEvent>("onRetry", report),
      giveUp: new EventEmitter<GiveUpEvent>("onGiveUp", report),
      success: new EventEmitter<SuccessEvent>("onSuccess", report),
      cancel: new EventEmitter<CancelEvent>("onCancel", report),
      runEnd: new EventEmitter<RunEndEvent>("onRunEnd", report),
    };
    this.onRetry = emit.retry.addListener;
    this.onGiveUp = emit.giveUp.addListener;
    this.onSuccess = emit.success.addListener;
    this.onCancel = emit.cancel.addListener;
    this.onRunEnd = emit.runEnd.addListener;
    this.cfg = {
      agent: options.agent,
      agentVersion: options.agentVersion,
      release: options.release,
      environment: options.environment,
      tools,
      retryByTool,
      permitted: options.permitted ? new Set(options.permitted) : undefined,
      retry,
      maxToolAttempts,
      policy: options.onToolError ?? "surface_to_model",
      errorMap: options.errorMap ?? new ToolErrorMap(),
      wordings: options.wordings,
      sink: options.sink,
      clock: options.clock ?? systemClock,
      scheduler,
      sleep: options.sleep ?? (options.scheduler ? sleepOn(scheduler) : systemSleep),
      random: options.random ?? Math.random,
      ids: options.ids ?? randomIds,
      abandonGraceMs,
      emit,
    };
  }

  /** Exceptions this runner's listeners have thrown so far (swallowed; see `onListenerError`). */
  get listenerErrors(): number {
    return Object.values(this.cfg.emit).reduce((n, e) => n + e.listenerErrors, 0);
  }

  /** Starts a run. End it with `end()` so its record is written. */
  startRun(options: RunOptions = {}): RunSession {
    return new RunSession(this.cfg, options);
  }
}
