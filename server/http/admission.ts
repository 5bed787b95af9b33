import type { IncomingMessage } from "node:http";
import { ApiError } from "./api-error";
import { DrainEstimate } from "./drain-estimate";
import { API_ANSWER_HEADERS } from "./path-check";
import { processLoop, startLoopSampler, type LoopReadings } from "./loop-turn";
import { clockMs, doorTicket, receivedAt, requestsInProgress, setDoor, type DoorPass, type DoorRefusal } from "./node-server";
import { processState } from "../process-state";

/**
 * Below this many requests there is no queue to shorten: a lone request that was slow to reach its
 * handler, or a long loop turn with only a few ingest requests in it (a cold start loading the route,
 * a pause of the whole machine), is served.
 */
const MIN_QUEUE = 4;

/** After a handler sheds a request for queueing, new ingest requests are refused at the door this long. */
const DOOR_CLOSED_MS = 250;

const SHED_MESSAGE = "the server is too busy to take this request in time; retry later";

/** Twice the delay seen, in whole seconds from 1 to 30: long enough for the queue to drain. */
export const retryAfterFor = (delayMs: number): number => Math.min(30, Math.max(1, Math.ceil((2 * delayMs) / 1000)));

/**
 * Whether the loop turn in progress has used up its share of the queueing budget with ingest it let
 * in itself. A request read in this turn arrived during the previous one, so it waited that turn plus
 * its place in this one: capping each turn at half the budget keeps the two within it. Requests
 * beyond the cap are refused in microseconds, so the next turn starts soon and stays short too.
 */
export function turnOverBudget(turn: number, admitted: number, budgetMs: number): boolean {
  return admitted >= MIN_QUEUE && turn > budgetMs / 2;
}

const INGEST = /^\/api\/v1\/ingest(\/[a-z-]+)*\/?(\?|$)/;
const OTLP = /^\/v1\/traces\/?(\?|$)/;

/** The handler's 429 in the error envelope, with the headers every API answer carries. */
function shedAnswer(retryAfter: number): DoorRefusal {
  return {
    status: 429,
    headers: { ...API_ANSWER_HEADERS, "retry-after": String(retryAfter) },
    body: JSON.stringify({ error: { code: "rate_limited", message: SHED_MESSAGE } }),
  };
}

/**
 * Admission control for ingest: keeps the time a request spends queued inside the process within a
 * budget by answering the excess `429` with `Retry-After` (clients back off by it), so accepted
 * requests and health stay near the budget instead of growing with the offered load. Every time is
 * handed in, so tests drive it with a clock of their own.
 */
export class Admission {
  private shedAt = -Infinity;
  private retryAfter = 1;
  private lastTicket = 0;
  /** Requests let in, by ticket: whether each counts in `queue` now (false while it waits for its body). */
  private readonly tickets = new Map<number, boolean>();
  /** Ingest requests (native and OTLP) let in at the door and not yet answered. */
  readonly queue: DrainEstimate;

  constructor(
    readonly budgetMs: number,
    private readonly loop: LoopReadings,
    now: number,
  ) {
    this.queue = new DrainEstimate(now);
  }

  /**
   * The handler's check, before anything is read or parsed: a request that already waited longer
   * than the budget inside the process (from its headers' arrival to this handler: Next's pipeline,
   * the event loop and the requests ahead of it, plus the loop's current lateness), or that arrives
   * in a loop turn over its budget, is to be refused: the Retry-After (s) to answer it with, or null
   * to serve it. `requestsHeld` is every request in the process. (The caller throws: this instance
   * lives in the instrumentation hook's bundle, whose ApiError is not the route bundle's.)
   */
  admit(arrivedAt: number | null, requestsHeld: number, now: number): number | null {
    const turn = this.loop.turnMs(now);
    if (turnOverBudget(turn, this.loop.admittedThisTurn(), this.budgetMs)) return this.refuse(turn, now);
    if (requestsHeld <= MIN_QUEUE) return null;
    const waited = arrivedAt === null ? 0 : Math.max(0, now - arrivedAt);
    const delay = waited + this.loop.lagMs(now);
    return delay > this.budgetMs ? this.refuse(delay, now) : null;
  }

  private refuse(delayMs: number, now: number): number {
    this.shedAt = now;
    this.retryAfter = retryAfterFor(delayMs);
    return this.retryAfter;
  }

  /**
   * The fast path, before Next sees a request. A native ingest POST is refused with the handler's
   * 429, at a cost of microseconds instead of the milliseconds that made the queue, when the ingest
   * already held would keep it past half the budget (Little's law, see DrainEstimate), while the loop
   * turn in progress is over its budget (see `turnOverBudget`), and for 250 ms after a handler shed
   * one. OTLP answers in its own format, so /v1/traces is only counted here and shed by its handler.
   */
  door(method: string | undefined, url: string, now: number): DoorRefusal | DoorPass | null {
    if (method !== "POST") return null;
    const native = INGEST.test(url);
    if (!native && !OTLP.test(url)) return null;
    if (native) {
      const turn = this.loop.turnMs(now);
      if (turnOverBudget(turn, this.loop.admittedThisTurn(), this.budgetMs)) return shedAnswer(retryAfterFor(turn));
      if (now - this.shedAt <= DOOR_CLOSED_MS) return shedAnswer(this.retryAfter);
      // A late loop alone is no queue to shorten (a cold start, a paused machine): only with one.
      const queued = this.queue.expectedWaitMs(now);
      const wait = queued > 0 ? queued + this.loop.lagMs(now) : 0;
      // Half the budget: the other half is for what the estimate cannot see (the request's own
      // service, a long loop turn), with the handler's check at the full budget behind it. With no
      // rate known yet (a burst at start), the budget is the best guess of how long to stay away.
      if (wait > this.budgetMs / 2) return shedAnswer(retryAfterFor(Number.isFinite(wait) ? wait : this.budgetMs));
    }
    this.loop.noteAdmitted();
    this.queue.enter(now);
    const ticket = ++this.lastTicket;
    this.tickets.set(ticket, true);
    return {
      ticket,
      onClose: (at) => {
        if (this.tickets.get(ticket)) this.queue.leave(at);
        this.tickets.delete(ticket);
      },
    };
  }

  /**
   * The handler started reading the body of `ticket`'s request: until `bodyReceived`, it waits for
   * its client's bytes, which is no work for the process, so it is set aside from the queue. A slow
   * upload held for its whole body deadline would otherwise look like a long queue with a slow
   * drain, and the door would turn every other client away.
   */
  bodyArriving(ticket: number, now: number): void {
    if (this.tickets.get(ticket) !== true) return;
    this.tickets.set(ticket, false);
    this.queue.setAside(now);
  }

  /** The body of `ticket`'s request has arrived: it is work for the process again. */
  bodyReceived(ticket: number, now: number): void {
    if (this.tickets.get(ticket) !== false) return;
    this.tickets.set(ticket, true);
    this.queue.enter(now);
  }
}

const state = processState("admission", (): { admission?: Admission } => ({}));

/** The handler's check (see Admission.admit) against the process's admission control: throws the 429. */
export function admit(req: Request, budgetMs: number, now: number = clockMs()): void {
  const admission = (state.admission ??= new Admission(budgetMs, processLoop, now));
  const retryAfter = admission.admit(receivedAt(req), requestsInProgress(), now);
  if (retryAfter !== null) throw new ApiError("rate_limited", SHED_MESSAGE, undefined, { "Retry-After": String(retryAfter) });
}

/**
 * Reads a request's body with the request set aside from the door's queue meanwhile (see
 * Admission.bodyArriving): waiting for a client's bytes is not work waiting for the database.
 */
export async function whileBodyArrives<T>(req: Request, read: () => Promise<T>): Promise<T> {
  const admission = state.admission;
  const ticket = doorTicket(req);
  if (!admission || ticket === null) return read();
  admission.bodyArriving(ticket, clockMs());
  try {
    return await read();
  } finally {
    admission.bodyReceived(ticket, clockMs());
  }
}

/** Starts the loop sampler and the door check on the process's HTTP server(s). */
export function startAdmission(budgetMs: number): void {
  startLoopSampler();
  const admission = (state.admission = new Admission(budgetMs, processLoop, clockMs()));
  setDoor((req: IncomingMessage, now: number) => admission.door(req.method, req.url ?? "", now));
}
