/** A surfaced error of the run no later call has answered yet. */
interface Pending {
  callId: string;
  tool: string;
  /** Calls started in the run when the error was surfaced: "the very next call" started right after. */
  startedBefore: number;
}

/** Unanswered surfaced errors kept per run; older ones beyond it are forgotten (no call links to them). */
const MAX_PENDING = 256;

/**
 * A run's bookkeeping of what the model was told and what it did next (docs/after-told.md), kept by
 * {@link RunSession}: which surfaced errors no call has answered yet, which call answers which
 * error (`after_error` on its spans), and which tool uses of the model's turns got no result.
 * Internal to the run loop.
 */
export class ToldLinks {
  private readonly pending: Pending[] = [];
  private started = 0;
  private readonly declared = new Set<string>();
  private readonly answered = new Set<string>();
  private turns = 0;

  /**
   * A call is starting: the call id of the surfaced error it answers, or null when it answers none.
   * The agent's own `afterError` wins (`null`: it says the call answers no error); else the oldest
   * unanswered error of the same tool (the model trying that tool again); else the latest unanswered
   * error of another tool, when no call has started since it was surfaced (the call that follows it).
   * An error is answered once.
   */
  link(tool: string, explicit: string | null | undefined): string | null {
    const before = this.started++;
    if (explicit === null) return null;
    let at = explicit !== undefined ? this.pending.findIndex((p) => p.callId === explicit) : this.pending.findIndex((p) => p.tool === tool);
    if (explicit === undefined && at < 0) {
      const last = this.pending.length - 1;
      if (last >= 0 && this.pending[last]!.startedBefore === before) at = last;
    }
    if (at < 0) return explicit ?? null;
    return this.pending.splice(at, 1)[0]!.callId;
  }

  /** A call's error was told to the model: the next calls may answer it. */
  surfaced(callId: string, tool: string): void {
    this.pending.push({ callId, tool, startedBefore: this.started });
    if (this.pending.length > MAX_PENDING) this.pending.shift();
  }

  /** The model asked for these tool uses in one turn. */
  declareTurn(toolUseIds: readonly string[]): void {
    this.turns++;
    for (const id of toolUseIds) if (typeof id === "string" && id !== "") this.declared.add(id);
  }

  /** A call with this id was run (or answered as not dispatched): its tool use has a result. */
  answer(callId: string): void {
    this.answered.add(callId);
  }

  /** Declared tool uses without a result; undefined when no turn was declared (the run did not track them). */
  unanswered(): number | undefined {
    if (this.turns === 0) return undefined;
    let n = 0;
    for (const id of this.declared) if (!this.answered.has(id)) n++;
    return n;
  }
}
