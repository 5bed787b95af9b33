import type { IncomingMessage } from "node:http";
import { ApiError } from "./api-error";
import { DrainEstimate } from "./drain-estimate";
import { StandingQueue } from "./standing-queue";
import { otlpDoorAnswer } from "./otlp-response";
import { API_ANSWER_HEADERS } from "./path-check";
import { processLoop, startLoopSampler, type LoopReadings } from "./loop-turn";
import { clockMs, doorTicket, receivedAt, requestsInProgress, setDoor, type DoorPass, type DoorRefusal } from "./node-server";
import { processState } from "../process-state";

/**
 * Below this many requests there is no queue to shorten: a lone request that was slow to reach its
 * handler (a cold start loading the route, a pause of the whole machine) is served.
 */
const MIN_QUEUE = 4;

/**
 * How far past the budget a request let in may have waited before its handler sheds it anyway. The
 * door judges each arrival on the wait it expects, at the rate the process has been answering; when
 * the machine then slows down for a while, the requests already let in wait longer than expected,
 * and serving them is better than refusing them after they waited: only a wait twice the budget
 * (the estimate wrong by half) says the process has fallen so far behind that the wait must be cut.
 */
export const SHED_FACTOR = 2;

/**
 * How far past the budget the door lets a queue that has not stood grow (see StandingQueue): far
 * enough for a burst or a slow spell at the sustainable rate to be served whole, short of SHED_FACTOR
 * so that a request let in on this estimate is not shed by its handler after waiting when the
 * estimate is a little short.
 */
export const TRANSIENT_FACTOR = 1.5;

const SHED_MESSAGE = "the server is too busy to take this request in time; retry later";

/** Twice the delay, in whole seconds from 1 to 30: long enough for the queue to drain. */
export const retryAfterFor = (delayMs: number): number => Math.min(30, Math.max(1, Math.ceil((2 * delayMs) / 1000)));

const INGEST = /^\/api\/v1\/ingest(\/[a-z-]+)*\/?(\?|$)/;
const OTLP = /^\/v1\/traces\/?(\?|$)/;

/** What the door reads of a request (strings as sent). */
export interface DoorRequest {
  method?: string;
  url: string;
  /** The key it presents (the Authorization or x-faultline-key header), if any. */
  credential?: string;
  contentType?: string;
}

/**
 * The handler's 429 (Retry-After in seconds): in the error envelope with the headers every API
 * answer carries, or for OTLP a google.rpc.Status in the request's encoding.
 */
function refusal(req: DoorRequest, otlp: boolean, message: string, retryAfter: number): DoorRefusal {
  const headers = { ...API_ANSWER_HEADERS, "retry-after": String(retryAfter) };
  if (otlp) return otlpDoorAnswer(429, message, headers, req.contentType);
  return { status: 429, headers, body: JSON.stringify({ error: { code: "rate_limited", message } }) };
}

/** What admission control is told at its start. */
export interface AdmissionOptions {
  /** FAULTLINE_QUEUE_BUDGET_MS: the longest a request should wait inside the process for the ones ahead of it. */
  budgetMs: number;
  /** FAULTLINE_MAX_INFLIGHT_PER_KEY: ingest requests one credential may have let in at once. */
  maxPerCredential: number;
  /**
   * How long every answered request must have waited past the budget before the queue counts as
   * standing (see StandingQueue); the budget's own length when not told.
   */
  intervalMs?: number;
}

/** A request let in: while it waits for its client's bytes (since when), and how long it has so far. */
interface Ticket {
  asideSince: number | null;
  asideMs: number;
}

/**
 * Admission control for ingest: keeps the time a request waits inside the process within a budget
 * by answering the excess `429` with `Retry-After` at the door, before Next parses anything or reads
 * a byte of the body, so a refusal costs microseconds and the process keeps its time for the
 * requests it took. What the door lets in waits its turn in the server's dispatch queue (see
 * DispatchQueue), so the queue is in the process, where it can be counted, not in the kernel. The
 * rule (docs/ingest-performance.md, "Admission control: the rule for overload"):
 *
 * - at the door, an ingest POST (native, or OTLP answered in its own format) is refused when the
 *   ingest already let in would keep it waiting past `TRANSIENT_FACTOR` times the budget (their number
 *   over the rate the process answers them, see DrainEstimate, plus the loop's lateness), or past
 *   the budget while the queue is standing (every request answered over the last interval waited
 *   past the budget, see StandingQueue: a queue that a burst or a slow transaction left drains by
 *   itself), unless in the latter case another credential holds half the queue or more and this one
 *   fewer than `maxPerCredential` requests (one key's flood must not turn the other keys away), or
 *   when its credential
 *   already has `maxPerCredential` requests started and not answered (those waiting their turn in
 *   the queue are bounded by the budget, not by this);
 * - in the handler (`admit`), a request is shed when, with more than 4 requests in the process, it
 *   waited past `SHED_FACTOR` times the budget anyway (from its headers' arrival, plus the loop's
 *   lateness): the process slowed down after it was let in, by more than the budget absorbs.
 *
 * Nothing else refuses, and no refusal closes the door for the requests after it: each is judged on
 * the queue it would join. Every time is handed in, so tests drive it with a clock of their own.
 */
export class Admission {
  private lastTicket = 0;
  /** Requests let in and not yet answered, by ticket. */
  private readonly tickets = new Map<number, Ticket>();
  /** Requests started (out of the dispatch queue) and not yet answered, per presented credential. */
  private readonly byCredential = new Map<string, number>();
  /** Requests let in and not yet answered (waiting their turn or started), per presented credential. */
  private readonly present = new Map<string, number>();
  /** Ingest requests (native and OTLP) let in at the door and not yet answered. */
  readonly queue: DrainEstimate;
  /** Whether the waits answered requests really had say the queue is standing. */
  readonly standing: StandingQueue;

  constructor(
    readonly options: AdmissionOptions,
    private readonly loop: LoopReadings,
    now: number,
    estimate: ConstructorParameters<typeof DrainEstimate>[1] = {},
  ) {
    this.queue = new DrainEstimate(now, estimate);
    this.standing = new StandingQueue(options.budgetMs, options.intervalMs ?? options.budgetMs);
  }

  /** Requests with `credential` started and not yet answered (those still waiting their turn do not count). */
  heldFor(credential: string): number {
    return this.byCredential.get(credential) ?? 0;
  }

  /** Requests with `credential` let in and not yet answered, whether started or waiting their turn. */
  presentFor(credential: string): number {
    return this.present.get(credential) ?? 0;
  }

  /** Whether a key other than `credential` holds half or more of the ingest let in and not yet answered. */
  private floodingOtherThan(credential: string): boolean {
    for (const [key, n] of this.present) if (key !== credential && 2 * n >= this.queue.held) return true;
    return false;
  }

  /**
   * The handler's check, before anything is read or parsed: the Retry-After (s) to shed the request
   * with, or null to serve it (see the class comment and SHED_FACTOR). `arrivedAt` is when its headers were read
   * (null where the server is not hooked); `requestsHeld` is every request in the process. (The
   * caller throws: this instance lives in the instrumentation hook's bundle, whose ApiError is not
   * the route bundle's.)
   */
  admit(arrivedAt: number | null, requestsHeld: number, now: number): number | null {
    if (arrivedAt === null || requestsHeld <= MIN_QUEUE) return null;
    const delay = Math.max(0, now - arrivedAt) + this.loop.lagMs(now);
    return delay > SHED_FACTOR * this.options.budgetMs ? retryAfterFor(delay) : null;
  }

  /**
   * The check every POST meets before Next sees it: ingest (native, and OTLP answered in its own
   * format) is refused here by the rule in the class comment, or let in and counted until answered.
   */
  door(req: DoorRequest, now: number): DoorRefusal | DoorPass | null {
    if (req.method !== "POST") return null;
    const otlp = OTLP.test(req.url);
    if (!otlp && !INGEST.test(req.url)) return null;
    const { budgetMs, maxPerCredential } = this.options;
    // A late loop alone is no queue to shorten (a cold start, a paused machine): only with one.
    const queued = this.queue.expectedWaitMs(now);
    const wait = queued > 0 ? queued + this.loop.lagMs(now) : 0;
    const credential = req.credential;
    // Past the budget, only a standing queue is shortened (short of what the handler would shed, a
    // queue that has not stood is let grow by half), and while one other key holds half of it or
    // more, a key with fewer than its limit in the process is still let in: the keys beside a flood
    // must not pay for it.
    const over = wait > TRANSIENT_FACTOR * budgetMs || (wait > budgetMs && this.standing.standing(now));
    const light = over && wait <= SHED_FACTOR * budgetMs && credential !== undefined && this.presentFor(credential) < maxPerCredential && this.floodingOtherThan(credential);
    // With no rate known yet (a burst at start), the budget is the best guess of how long to stay away.
    if (over && !light) return refusal(req, otlp, SHED_MESSAGE, retryAfterFor(Number.isFinite(wait) ? wait : budgetMs));
    // The handler's per-key slot limit (backpressure.ts), checked here where it costs nothing.
    if (credential !== undefined && this.heldFor(credential) >= maxPerCredential) {
      return refusal(req, otlp, `too many concurrent ingest requests with this key (${maxPerCredential}); retry later`, 1);
    }
    this.queue.enter(now);
    if (credential !== undefined) this.present.set(credential, this.presentFor(credential) + 1);
    const ticket = ++this.lastTicket;
    const entry: Ticket = { asideSince: null, asideMs: 0 };
    this.tickets.set(ticket, entry);
    let started = false;
    return {
      ticket,
      onStart: () => {
        started = true;
        if (credential !== undefined) this.byCredential.set(credential, this.heldFor(credential) + 1);
      },
      onClose: (at) => {
        if (!this.tickets.delete(ticket)) return;
        if (entry.asideSince === null) this.queue.leave(at);
        // A request dropped before its turn (its client left) says nothing of how long turns take.
        if (started) this.standing.answered(at - now - entry.asideMs - (entry.asideSince === null ? 0 : at - entry.asideSince), at);
        if (this.queue.held === 0) this.standing.emptied();
        if (credential === undefined) return;
        const present = this.presentFor(credential) - 1;
        if (present > 0) this.present.set(credential, present);
        else this.present.delete(credential);
        if (!started) return;
        const left = this.heldFor(credential) - 1;
        if (left > 0) this.byCredential.set(credential, left);
        else this.byCredential.delete(credential);
      },
    };
  }

  /**
   * The handler started reading the body of `ticket`'s request: until `bodyReceived`, it waits for
   * its client's bytes, which is no work for the process, so it is set aside from the queue. A slow
   * upload held for its whole body deadline would otherwise look like a long queue with a slow
   * drain, and the door would turn every other client away. (It still counts for its credential:
   * the slot limit is what bounds a key's slow uploads.)
   */
  bodyArriving(ticket: number, now: number): void {
    const entry = this.tickets.get(ticket);
    if (entry === undefined || entry.asideSince !== null) return;
    entry.asideSince = now;
    this.queue.setAside(now);
  }

  /** The body of `ticket`'s request has arrived: it is work for the process again. */
  bodyReceived(ticket: number, now: number): void {
    const entry = this.tickets.get(ticket);
    if (entry === undefined || entry.asideSince === null) return;
    entry.asideMs += Math.max(0, now - entry.asideSince);
    entry.asideSince = null;
    this.queue.enter(now);
  }
}

const state = processState("admission", (): { admission?: Admission } => ({}));

/** The handler's check (see Admission.admit) against the process's admission control: throws the 429. */
export function admit(req: Request, now: number = clockMs()): void {
  const retryAfter = state.admission?.admit(receivedAt(req), requestsInProgress(), now) ?? null;
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

/** What the door reads of a request: the key as presented (server/http/auth.ts lists the forms), not checked. */
function doorRequest(req: IncomingMessage): DoorRequest {
  const credential = req.headers.authorization ?? req.headers["x-faultline-key"];
  return {
    method: req.method,
    url: req.url ?? "",
    credential: typeof credential === "string" && credential !== "" ? credential : undefined,
    contentType: req.headers["content-type"],
  };
}

/** Starts the loop sampler and the door check on the process's HTTP server(s). */
export function startAdmission(options: AdmissionOptions): void {
  startLoopSampler();
  const admission = (state.admission = new Admission(options, processLoop, clockMs()));
  setDoor((req: IncomingMessage, now: number) => admission.door(doorRequest(req), now));
}
