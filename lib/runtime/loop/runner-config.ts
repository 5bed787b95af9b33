import { EventEmitter } from "../common/event";
import type { IdSource } from "../common/ids";
import type { Clock, Random, Scheduler, Sleep } from "../common/time";
import type { WordingSource } from "../experiments/wording-set";
import type { ToolErrorMap } from "../map/tool-error-map";
import type { RecordSink } from "../record/sink";
import type { RetryOptions } from "../retry/retry-options";
import type { FailurePolicy } from "./decide";
import type { CancelEvent, GiveUpEvent, RetryEvent, RunEndEvent, SuccessEvent } from "./events";
import type { ToolDefinition } from "./tool-definition";

/** Resolved settings shared by a runner and its runs. Internal. */
export interface RunnerConfig {
  readonly agent: string;
  readonly agentVersion: string | undefined;
  readonly release: string | undefined;
  readonly environment: string | undefined;
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  readonly retryByTool: ReadonlyMap<string, RetryOptions>;
  readonly permitted: ReadonlySet<string> | undefined;
  readonly retry: RetryOptions;
  readonly maxToolAttempts: number;
  readonly policy: FailurePolicy;
  readonly errorMap: ToolErrorMap;
  /** Faultline's wordings (experiments, promoted winners); undefined: only code-side experiments apply. */
  readonly wordings: WordingSource | undefined;
  readonly sink: RecordSink | undefined;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly sleep: Sleep;
  readonly random: Random;
  readonly ids: IdSource;
  readonly abandonGraceMs: number;
  readonly emit: {
    readonly retry: EventEmitter<RetryEvent>;
    readonly giveUp: EventEmitter<GiveUpEvent>;
    readonly success: EventEmitter<SuccessEvent>;
    readonly cancel: EventEmitter<CancelEvent>;
    readonly runEnd: EventEmitter<RunEndEvent>;
  };
}
