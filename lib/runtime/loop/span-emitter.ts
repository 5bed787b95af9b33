import type { ToolCallSpanRecord } from "../../contracts";
import type { IdSource } from "../common/ids";
import type { Scheduler } from "../common/time";
import type { ToolError } from "../errors/tool-error";
import { spanRecord, type AttemptFacts, type RecordScope } from "../record/build";
import { safeRecord, type RecordSink } from "../record/sink";
import type { BodyWatch } from "./attempt";
import type { Verdict } from "./decide";
import type { CallRef } from "./events";
import type { ToolDefinition } from "./tool-definition";

/** What every span of one call carries besides its attempt: the arguments hash and the error it answers. */
export interface CallFacts {
  argsHash: string | undefined;
  /** The call id of the surfaced error the call answers; null: it answers none. */
  afterError: string | null;
}

/** One attempt to record as a span. */
export interface SpanInput {
  ref: CallRef;
  def: ToolDefinition | undefined;
  attempt: number;
  startedAt: number;
  endedAt: number;
  error?: ToolError | undefined;
  verdict?: Verdict | undefined;
  /** Fields that override what the error and verdict say (a cancelled attempt's outcome and message). */
  extra?: Partial<AttemptFacts> | undefined;
  /** The attempt's tool body, when one was started: the span says whether it was abandoned. */
  body?: BodyWatch | undefined;
  facts?: CallFacts | undefined;
}

/** Settings of a {@link SpanEmitter}: the run's scope and the runner's sink, ids and timers. */
export interface SpanEmitterOptions {
  scope: RecordScope;
  sink: RecordSink | undefined;
  ids: IdSource;
  scheduler: Scheduler;
  abandonGraceMs: number;
}

/**
 * Turns a run's attempts into `tool_call_span` records. A span whose tool body was interrupted and
 * has not settled is held back until its `abandoned` flag is known; `drain()` waits for those.
 */
export class SpanEmitter {
  private held = 0;
  private drained: (() => void)[] = [];

  constructor(private readonly o: SpanEmitterOptions) {}

  /** Whether spans go anywhere: without a sink the loop skips the work of building them. */
  get active(): boolean {
    return this.o.sink !== undefined;
  }

  /** Records one attempt (nothing without a sink). */
  emit(input: SpanInput): void {
    if (!this.o.sink) return;
    const { ref, def, verdict, error, facts } = input;
    const attempt: AttemptFacts = {
      id: this.o.ids("span"),
      callId: ref.callId,
      tool: ref.tool,
      toolVersion: def?.version,
      attempt: input.attempt,
      startedAt: input.startedAt,
      endedAt: input.endedAt,
      outcome: error ? error.outcome : "ok",
      error,
      decision: verdict?.decision,
      retryAfterMs: verdict?.retryAfterMs,
      backoffMs: verdict?.decision === "retried" ? verdict.backoffMs : undefined,
      argsHash: facts?.argsHash,
      afterError: facts?.afterError,
    };
    if (input.extra) Object.assign(attempt, input.extra);
    const span = spanRecord(this.o.scope, attempt);
    this.settle(span, input.body);
  }

  /** Resolves once every held-back span has been recorded. */
  drain(): Promise<void> {
    if (this.held === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.drained.push(resolve));
  }

  /**
   * Records a span once its `abandoned` flag is known. No body ran: no flag. The body has settled:
   * `false`, at once. Otherwise the span waits, off the loop's path, for the body to settle
   * (`false`) or for `abandonGraceMs` to pass (`true`), whichever comes first; it is recorded once.
   */
  private settle(span: ToolCallSpanRecord, body: BodyWatch | undefined): void {
    const { sink, scheduler, abandonGraceMs } = this.o;
    if (!body || body.settled()) {
      if (body) span.abandoned = false;
      return safeRecord(sink, span);
    }
    this.held++;
    let done = false;
    // A holder, not a const: a scheduler may run a 0 ms grace synchronously, before schedule() returns.
    const timer: { cancel?: () => void } = {};
    const emit = (abandoned: boolean) => {
      if (done) return;
      done = true;
      timer.cancel?.();
      span.abandoned = abandoned;
      safeRecord(sink, span);
      if (--this.held === 0) this.drained.splice(0).forEach((resolve) => resolve());
    };
    timer.cancel = scheduler.schedule(() => emit(true), abandonGraceMs);
    void body.done.then(() => emit(false));
  }
}
