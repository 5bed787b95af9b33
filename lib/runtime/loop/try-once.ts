import type { CallVerdict, CircuitBreaker } from "../breaker/circuit-breaker";
import { isCancellation } from "../common/abort";
import type { Scheduler } from "../common/time";
import type { ToolError } from "../errors/tool-error";
import { ToolResultError } from "../errors/tool-result-error";
import { ToolTimedOutError } from "../errors/tool-timed-out";
import type { ToolErrorMap } from "../map/tool-error-map";
import { runAttempt, type BodyWatch, type SignalSource } from "./attempt";
import { breakerVerdict, type CallScope } from "./call-scope";
import type { CallRef } from "./events";
import { classifyThrown, resultViolation } from "./tool-checks";
import type { ToolContext, ToolDefinition } from "./tool-definition";

/** One attempt of a call. */
export interface AttemptInput {
  ref: CallRef;
  def: ToolDefinition;
  args: unknown;
  attempt: number;
  scope: CallScope;
  /** Milliseconds left before the run's deadline. */
  remainingMs: number | undefined;
  scheduler: Scheduler;
  /** The runner's map, for a tool without its own. */
  errorMap: ToolErrorMap;
}

/** How one attempt ended, classified; `body` is set whenever the tool body was started. */
export type AttemptEnd =
  | { kind: "ok"; value: unknown; body: BodyWatch | undefined }
  | { kind: "cancelled"; deadline: boolean; body: BodyWatch | undefined }
  | { kind: "failed"; error: ToolError; body: BodyWatch | undefined };

/**
 * Runs one attempt: the breaker's admission, the body raced against its limits, the result check
 * and the error map. An admitted attempt is reported to its breaker exactly once, whatever
 * happens; a half-open circuit whose probe went unreported would turn every later call away.
 */
export async function tryOnce(input: AttemptInput): Promise<AttemptEnd> {
  const { ref, def, attempt, scope } = input;
  const { breaker } = def;
  const refused = breaker?.admit(ref.tool);
  if (refused) return { kind: "failed", error: refused, body: undefined };
  const verdict = new BreakerReport(breaker);
  try {
    const out = await runAttempt((source) => def.execute(input.args, new AttemptContext(ref, attempt, source)), {
      signal: scope.signal,
      onCancel: scope.onCancel,
      timeoutMs: def.timeoutMs,
      remainingMs: input.remainingMs,
      scheduler: input.scheduler,
    });
    let error: ToolError;
    if (out.kind === "ok") {
      const violation = resultViolation(def, out.value);
      if (violation === undefined) {
        verdict.report("success");
        return { kind: "ok", value: out.value, body: out.body };
      }
      error = new ToolResultError(ref.tool, { violation });
    } else if (out.kind === "timeout") {
      error = new ToolTimedOutError(ref.tool, { timeoutMs: def.timeoutMs ?? 0 });
    } else if (out.kind === "deadline" || out.kind === "cancelled" || isCancellation(out.error, scope.signal)) {
      verdict.report("neutral");
      return { kind: "cancelled", deadline: out.kind === "deadline", body: out.body };
    } else {
      error = classifyThrown(def.errorMap ?? input.errorMap, ref.tool, out.error);
    }
    verdict.report(breakerVerdict(error), error);
    return { kind: "failed", error, body: out.body };
  } finally {
    verdict.report("failure");
  }
}

/**
 * What a tool body receives. A class rather than a literal with a getter (which V8 keeps in a slow
 * shape): `signal` is read from the prototype and made only when the body reads it (see `runAttempt`).
 */
class AttemptContext implements ToolContext {
  readonly runId: string;
  readonly callId: string;

  constructor(
    ref: CallRef,
    readonly attempt: number,
    private readonly source: SignalSource,
  ) {
    this.runId = ref.runId;
    this.callId = ref.callId;
  }

  get signal(): AbortSignal {
    return this.source.signal();
  }
}

/** Reports an attempt to its breaker once: the first verdict counts. */
class BreakerReport {
  private reported: boolean;

  constructor(private readonly breaker: CircuitBreaker | undefined) {
    this.reported = breaker === undefined;
  }

  report(verdict: CallVerdict, failure?: ToolError): void {
    if (this.reported) return;
    this.reported = true;
    this.breaker!.record(verdict, failure);
  }
}
