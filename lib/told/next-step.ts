import type { ToldRunState, ToldStep } from "@/lib/contracts/told";

/** One tool call of a run, as its stored attempts describe it. */
export interface RunCall {
  callId: string;
  tool: string;
  /** Its first attempt's start. */
  startedAt: number;
  /** Outcome and code of its last attempt (highest number, then latest end); null when unknown. */
  outcome: string | null;
  code: string | null;
  /** The call's arguments hash; null when no attempt carried one. */
  argsHash: string | null;
  /**
   * The call id of the surfaced error this call answers, when the runtime linked it; '' when the
   * runtime said it answers none; null when nothing is known (then the fallback rule may apply).
   */
  afterError: string | null;
}

/** An error of the run that the model was told about (a tool error with a told text). */
export interface SurfacedError {
  eventId: string;
  callId: string;
  tool: string;
  code: string | null;
  /** When the model was told: later calls are those that started at or after it. */
  occurredAt: number;
}

/** What the classification knows about a run besides its calls and errors. */
export interface RunEnd {
  /** False while the run record has not said it ended. */
  ended: boolean;
  /** The run record's state (`completed`, `failed`, …); null when no run record arrived. */
  state: string | null;
}

/** The next step of one surfaced error and the call that decided it. */
export interface NextStep {
  eventId: string;
  step: ToldStep;
  /** The recovering call, or the call of the tool that repeated or failed again; null for gave up, run failed and pending. */
  next: RunCall | null;
  /** The model's calls until the recovering one: the tool's own calls before it, plus the recovering call. Null unless recovered. */
  callsUntilRecovery: number | null;
  /** The run's state after the error. */
  runState: ToldRunState;
}

const ok = (c: RunCall) => c.outcome === "ok";

/** Calls in the order the model made them: by first start, then call id and tool (a total order). */
export function orderCalls(calls: readonly RunCall[]): RunCall[] {
  return [...calls].sort((a, b) => a.startedAt - b.startedAt || (a.callId < b.callId ? -1 : a.callId > b.callId ? 1 : a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

/** The run's state as the told counts key it: its final state once ended, else `open`. */
export function toldRunState(end: RunEnd): ToldRunState {
  if (!end.ended) return "open";
  if (end.state === "failed") return "failed";
  if (end.state === "cancelled") return "cancelled";
  return "completed";
}

/** True when `call` is the first call of its tool after an error of that tool was surfaced: its retry. */
function retriesItsOwnError(call: RunCall, ordered: readonly RunCall[], errors: readonly SurfacedError[]): boolean {
  const at = ordered.indexOf(call);
  return errors.some((e) => {
    if (e.tool !== call.tool || e.callId === call.callId || e.occurredAt > call.startedAt) return false;
    for (let i = 0; i < at; i++) {
      const c = ordered[i]!;
      if (c.tool === call.tool && c.startedAt >= e.occurredAt && c.callId !== e.callId) return false;
    }
    return true;
  });
}

/**
 * The next step of one surfaced error of a run (docs/after-told.md), from the run's calls in order
 * and all of the run's surfaced errors.
 *
 * Later calls are those that started at or after the error was surfaced, other than the error's own
 * call. Recovery comes first: the first later call of the same tool that ended ok, or a call of
 * another tool that replaced it — only one the runtime linked to this error (`after_error`), or,
 * when no call is linked to it, the very next call of the run if nothing else claims it (it is not
 * linked to another error, nor its own tool's retry after an error of that tool) — whichever came
 * first. Without a recovery, the model's retry decides: the linked call of the same tool, else its
 * first later call; with both arguments hashes known it is `repeated` (same hash, same code) or
 * `changed_failed`, and `unknown` without them. Without any later call of the tool the run's end
 * decides: `gave_up` (completed), `run_failed` (failed or cancelled) or `pending` (not ended).
 */
export function nextStepOf(error: SurfacedError, ordered: readonly RunCall[], end: RunEnd, errors: readonly SurfacedError[] = [error]): NextStep {
  const runState = toldRunState(end);
  const own = ordered.find((c) => c.callId === error.callId && c.tool === error.tool);
  const later = ordered.filter((c) => c.startedAt >= error.occurredAt && c !== own);
  const linked = later.filter((c) => c.afterError === error.callId);
  const first = later[0];
  const answer = linked[0] ?? (first && first.afterError === null && !retriesItsOwnError(first, ordered, errors) ? first : undefined);
  const replacement = answer && answer.tool !== error.tool && ok(answer) ? answer : undefined;
  const sameTool = later.filter((c) => c.tool === error.tool);
  const recoveredAt = sameTool.findIndex(ok);
  const recovering = recoveredAt >= 0 ? sameTool[recoveredAt]! : undefined;
  const replacedAt = replacement ? later.indexOf(replacement) : -1;
  if (replacement && (!recovering || replacedAt < later.indexOf(recovering))) {
    let triesBefore = 0;
    for (let i = 0; i < replacedAt; i++) if (later[i]!.tool === error.tool) triesBefore++;
    return { eventId: error.eventId, step: "replaced", next: replacement, callsUntilRecovery: triesBefore + 1, runState };
  }
  if (recovering) return { eventId: error.eventId, step: "recovered", next: recovering, callsUntilRecovery: recoveredAt + 1, runState };
  const retry = linked.find((c) => c.tool === error.tool) ?? sameTool[0];
  if (retry) {
    const before = own?.argsHash ?? null;
    if (before === null || retry.argsHash === null) return { eventId: error.eventId, step: "unknown", next: retry, callsUntilRecovery: null, runState };
    const repeated = before === retry.argsHash && retry.code === error.code;
    return { eventId: error.eventId, step: repeated ? "repeated" : "changed_failed", next: retry, callsUntilRecovery: null, runState };
  }
  const step: ToldStep = runState === "open" ? "pending" : runState === "completed" ? "gave_up" : "run_failed";
  return { eventId: error.eventId, step, next: null, callsUntilRecovery: null, runState };
}

/** The next step of every surfaced error of one run. */
export function classifyRun(calls: readonly RunCall[], errors: readonly SurfacedError[], end: RunEnd): NextStep[] {
  const ordered = orderCalls(calls);
  return errors.map((e) => nextStepOf(e, ordered, end, errors));
}
