import { ApiError } from "./api-error";
import type { IncomingMessage } from "node:http";
import { clockMs, receivedAt, requestsInProgress, setDoor, type DoorRefusal } from "./node-server";

const SAMPLE_MS = 50;

/**
 * Below this many requests in the process there is no queue to shorten: a lone request that was
 * slow to reach its handler (a cold start loading the route, a pause of the whole machine) is served.
 */
const MIN_QUEUE = 4;

/** After a request is shed for queueing, new ingest requests are refused at the door this long. */
const DOOR_CLOSED_MS = 250;

interface LagState {
  timer: NodeJS.Timeout | null;
  /** How late the sampling timer fired last time, and when that was. */
  latest: number;
  latestAt: number;
  /** When a request was last shed for having queued past the budget, and the Retry-After it got. */
  shedAt: number;
  retryAfter: number;
  budgetMs: number;
}
const state = globalThis as unknown as { __faultlineLag?: LagState };
const lag = (state.__faultlineLag ??= { timer: null, latest: 0, latestAt: 0, shedAt: -Infinity, retryAfter: 1, budgetMs: Infinity });

/**
 * Samples how late a 50 ms timer fires. A request's own wait is stamped when Node parses its
 * headers, which a blocked event loop postpones too: the timer's lateness covers that part.
 */
export function startLagSampler(): void {
  if (lag.timer) return;
  let expected = clockMs() + SAMPLE_MS;
  lag.latestAt = clockMs();
  lag.timer = setInterval(() => {
    const now = clockMs();
    lag.latest = Math.max(0, now - expected);
    lag.latestAt = now;
    expected = now + SAMPLE_MS;
  }, SAMPLE_MS);
  lag.timer.unref();
}

/**
 * The event loop's current lateness, ms (0 when the sampler is not running). A sampler that has not
 * fired for a while is itself the evidence: the loop is at least that late now.
 */
export function eventLoopLagMs(now: number = clockMs()): number {
  if (!lag.timer) return 0;
  const overdue = now - lag.latestAt - SAMPLE_MS;
  return now - lag.latestAt < 4 * SAMPLE_MS ? Math.max(lag.latest, overdue) : Math.max(0, overdue);
}

/**
 * Admission control for ingest, checked before anything is read or parsed: a request that
 * already waited longer than the budget inside the process (from its headers' arrival to this
 * handler: Next's pipeline, the event loop and the other requests ahead of it, plus the loop's
 * current lateness) is answered 429 at once. Shedding the excess keeps the queue, and so the
 * latency of accepted requests and of health, near the budget instead of growing with the
 * offered load; clients back off by `Retry-After`.
 */
export function admit(req: Request, budgetMs: number, now: number = clockMs()): void {
  if (requestsInProgress() <= MIN_QUEUE) return;
  const arrived = receivedAt(req);
  const waited = arrived === null ? 0 : Math.max(0, now - arrived);
  const delay = waited + eventLoopLagMs(now);
  if (delay <= budgetMs) return;
  const retryAfter = Math.min(30, Math.max(1, Math.ceil((2 * delay) / 1000)));
  lag.shedAt = now;
  lag.retryAfter = retryAfter;
  throw new ApiError("rate_limited", SHED_MESSAGE, undefined, {
    "Retry-After": String(retryAfter),
  });
}

const SHED_MESSAGE = "the server is too busy to take this request in time; retry later";
const NATIVE_INGEST = /^\/api\/v1\/ingest(\/adk)?\/?(\?|$)/;

/**
 * The fast path of admission control, run by the Node server before Next sees a request: while
 * handlers are shedding (one was shed in the last 250 ms), new native-ingest POSTs are refused with
 * the same 429 without passing through Next, so refusing costs microseconds instead of the
 * milliseconds that made the queue. Once the queue drains below the budget, the door opens again.
 * (OTLP answers in its own format, so /v1/traces is shed by its handler only.)
 */
export function doorRefusal(req: IncomingMessage, now: number): DoorRefusal | null {
  if (req.method !== "POST" || !NATIVE_INGEST.test(req.url ?? "")) return null;
  // Also closed while the event loop itself runs later than the budget: requests then queue in the
  // kernel's socket buffers, where neither their stamps nor the in-process count can see them.
  // As in admit(), a short queue is always let through: with a handful of requests in the process a
  // late loop is a cold start or a machine-wide pause (module loading, a busy CI box), not overload.
  const lagging = requestsInProgress() > MIN_QUEUE && eventLoopLagMs(now) > lag.budgetMs;
  if (now - lag.shedAt > DOOR_CLOSED_MS && !lagging) return null;
  if (lagging) lag.retryAfter = Math.min(30, Math.max(1, Math.ceil((2 * eventLoopLagMs(now)) / 1000)));
  return {
    status: 429,
    headers: {
      "content-type": "application/json",
      "retry-after": String(lag.retryAfter),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      "referrer-policy": "no-referrer",
    },
    body: JSON.stringify({ error: { code: "rate_limited", message: SHED_MESSAGE } }),
  };
}

/** Starts the lag sampler and opens the door check on the process's HTTP server(s). */
export function startAdmission(budgetMs: number): void {
  lag.budgetMs = budgetMs;
  startLagSampler();
  setDoor(doorRefusal);
}
