import { EventEmitter, type Event } from "../common/event";
import { randomIds, type IdSource } from "../common/ids";
import { sleepOn, systemClock, systemScheduler, systemSleep, type Clock, type Random, type Scheduler, type Sleep } from "../common/time";
import { ToolErrorMap } from "../map/tool-error-map";
import type { RecordSink } from "../record/sink";
import { retryOptions, type RetryOptions } from "../retry/retry-options";
import type { FailurePolicy } from "./decide";
import type { CancelEvent, GiveUpEvent, RetryEvent, RunEndEvent, SuccessEvent } from "./events";
import type { RunnerConfig } from "./runner-config";
import { RunSession, type RunOptions } from "./run-session";
import type { ToolDefinition } from "./tool-definition";

/** Default of {@link ToolRunnerOptions.maxToolAttempts}. */
export const DEFAULT_MAX_TOOL_ATTEMPTS = 12;

/** Options of {@link ToolRunner}. */
export interface ToolRunnerOptions {
  /** Agent name (`agent` on the run record). */
  agent: string;
  /** Agent version (`agent_version`). */
  agentVersion?: string;
  /** Release stamped on every record (overrides the exporter's resource). */
  release?: string;
  environment?: string;
  tools: readonly ToolDefinition[];
  /** Allowlist; a call outside it is refused with {@link ToolNotPermittedError}. Absent: all tools. */
  permitted?: readonly string[];
  retry?: Partial<RetryOptions>;
  /** Retries one tool may consume across a whole run, all its calls together. Default 12. */
  maxToolAttempts?: number;
  /** What a failed call does to the run. Default `surface_to_model`. */
  onToolError?: FailurePolicy;
  /** Translation for tools without their own `errorMap`. Default: everything untyped is `unmapped_failure`. */
  errorMap?: ToolErrorMap;
  /** Where records go (an exporter, a {@link MemorySink}). Absent: nothing is recorded. */
  sink?: RecordSink;
  clock?: Clock;
  /** Timers for timeouts and deadlines. */
  scheduler?: Scheduler;
  /** Backoff sleep. Default: a sleep on `scheduler`. */
  sleep?: Sleep;
  /** Jitter source. */
  random?: Random;
  ids?: IdSource;
}

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
    const emit = {
      retry: new EventEmitter<RetryEvent>(),
      giveUp: new EventEmitter<GiveUpEvent>(),
      success: new EventEmitter<SuccessEvent>(),
      cancel: new EventEmitter<CancelEvent>(),
      runEnd: new EventEmitter<RunEndEvent>(),
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
      sink: options.sink,
      clock: options.clock ?? systemClock,
      scheduler,
      sleep: options.sleep ?? (options.scheduler ? sleepOn(scheduler) : systemSleep),
      random: options.random ?? Math.random,
      ids: options.ids ?? randomIds,
      emit,
    };
  }

  /** Starts a run. End it with `end()` so its record is written. */
  startRun(options: RunOptions = {}): RunSession {
    return new RunSession(this.cfg, options);
  }
}
