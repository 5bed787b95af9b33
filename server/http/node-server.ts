import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { processState } from "../process-state";
import { DispatchQueue } from "./dispatch-queue";
import { checkRequestPath } from "./path-check";

/**
 * What only the Node HTTP server knows, handed to Next's handlers as request headers: when the
 * request's headers arrived (so admission control can see how long it queued inside the process
 * before its handler ran) and the peer's socket address (Next only forwards `x-forwarded-for`,
 * which a client can set itself). Both are overwritten on every request, so a client cannot
 * forge them; they are trusted only once `attachToHttpServers` has run.
 */
export const RECEIVED_AT_HEADER = "x-faultline-received-at";
export const PEER_HEADER = "x-faultline-peer";
/** The door's number for a request it let in (admission.ts), so the handler can say what it waits for. */
export const TICKET_HEADER = "x-faultline-door-ticket";
const FORWARDED_HEADER = "x-faultline-forwarded-for";

/** A refusal answered by the Node server itself, before Next spends anything on the request. */
export interface DoorRefusal {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array;
}
/** A request let in by the door, which wants to know when it leaves the queue and when it is answered (or abandoned). */
export interface DoorPass {
  onStart?: () => void;
  onClose: (now: number) => void;
  /** Stamped on the request (TICKET_HEADER) for its handler. */
  ticket?: number;
}
type Door = (req: IncomingMessage, now: number) => DoorRefusal | DoorPass | null;

interface HookState {
  attached: boolean;
  servers: Server[];
  door: Door | null;
  /** Requests received and not yet answered (or abandoned). */
  inProgress: number;
  /** Requests the door let in, waiting for their turn to reach Next. */
  dispatch: DispatchQueue;
  /** Whether a connection was accepted since the dispatch queue last asked. */
  accepted: boolean;
}
const hooks: HookState = processState("http", (): HookState => ({
  attached: false,
  servers: [],
  door: null,
  inProgress: 0,
  accepted: false,
  dispatch: new DispatchQueue(
    (run) => setImmediate(run),
    () => {
      const accepted = hooks.accepted;
      hooks.accepted = false;
      return accepted;
    },
  ),
}));

/** Requests the door let in that have not reached their handler yet. */
export function requestsParked(): number {
  return hooks.dispatch.length;
}

/** Requests this process has received and not yet finished (0 where the server is not hooked). */
export function requestsInProgress(): number {
  return hooks.inProgress;
}

/** Installs the check every request meets before Next sees it (admission control's fast path). */
export function setDoor(door: Door | null): void {
  hooks.door = door;
}

/** Milliseconds on a clock shared by the whole process (and comparable across requests). */
export const clockMs = (): number => performance.timeOrigin + performance.now();

/**
 * The HTTP servers this process listens with. `next start` creates its server before the
 * instrumentation hook runs and offers no handle on it, so they are found among the process's
 * active handles (an undocumented but long-stable Node API; nothing is found where it is missing).
 */
function listeningServers(): Server[] {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? [];
  return handles.filter((h): h is Server => h instanceof Server && h.listening);
}

/** The addresses and ports the process's HTTP servers are bound to (empty when none could be found). */
export function boundEndpoints(): { address: string; port: number }[] {
  return listeningServers()
    .map((s) => s.address())
    .filter((a): a is AddressInfo => typeof a === "object" && a !== null)
    .map((a) => ({ address: a.address, port: a.port }));
}

/** The addresses the process's HTTP servers are bound to (empty when none could be found). */
export function boundAddresses(): string[] {
  return boundEndpoints().map((e) => e.address);
}

/**
 * Bounds the time a client may take to send its headers and its whole request (Node's own
 * defaults are 60 s and 5 min: 64 trickled bodies held every ingest slot that long), and stamps
 * each request with its arrival time and peer address. Returns how many servers were found.
 */
export function attachToHttpServers(options: { headersTimeoutMs: number; requestTimeoutMs: number }): number {
  for (const server of listeningServers()) {
    if (hooks.servers.includes(server)) continue;
    server.headersTimeout = options.headersTimeoutMs;
    server.requestTimeout = options.requestTimeoutMs;
    // Next's listener runs behind ours: at once (same tick as the headers were parsed) for what the
    // door does not guard, in its turn for the ingest it lets in, never for what it refuses, whose
    // answer then costs a few microseconds instead of a pass through Next.
    const nextListeners = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
    server.removeAllListeners("request");
    server.on("connection", () => {
      hooks.accepted = true;
    });
    server.on("request", (req: IncomingMessage, res: ServerResponse) => {
      const now = clockMs();
      const forwarded = req.headers["x-forwarded-for"];
      req.headers[RECEIVED_AT_HEADER] = now.toFixed(1);
      req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown";
      if (typeof forwarded === "string") req.headers[FORWARDED_HEADER] = forwarded;
      else delete req.headers[FORWARDED_HEADER];
      hooks.inProgress++;
      res.once("close", () => hooks.inProgress--);
      delete req.headers[TICKET_HEADER];
      const verdict = checkRequestPath(req.url ?? "/") ?? hooks.door?.(req, now) ?? null;
      if (verdict && "status" in verdict) {
        res.writeHead(verdict.status, { ...verdict.headers, "content-length": Buffer.byteLength(verdict.body) });
        res.end(verdict.body);
        return;
      }
      const toNext = () => {
        for (const listener of nextListeners) listener.call(server, req, res);
      };
      if (!verdict) return toNext();
      if (verdict.ticket !== undefined) req.headers[TICKET_HEADER] = String(verdict.ticket);
      let closed = false;
      res.once("close", () => {
        closed = true;
        verdict.onClose(clockMs());
      });
      // Work the door let in waits its turn (see DispatchQueue); a client gone meanwhile costs nothing.
      hooks.dispatch.push(() => {
        if (closed || req.destroyed || req.socket.destroyed) return;
        verdict.onStart?.();
        toNext();
      });
    });
    hooks.servers.push(server);
  }
  hooks.attached = hooks.servers.length > 0;
  return hooks.servers.length;
}

/** The door's ticket of a request it let in, or null (not hooked, not ingest). */
export function doorTicket(req: Request): number | null {
  if (!hooks.attached) return null;
  const value = Number(req.headers.get(TICKET_HEADER));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** When the request's headers arrived (process clock, ms), or null where the server is not hooked. */
export function receivedAt(req: Request): number | null {
  if (!hooks.attached) return null;
  const value = Number(req.headers.get(RECEIVED_AT_HEADER));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * The client's address for per-client limits: the socket peer, or behind a trusted reverse proxy
 * (FAULTLINE_TRUST_PROXY=1) the last address the proxy appended to `X-Forwarded-For`.
 */
export function clientAddress(req: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = (hooks.attached ? req.headers.get(FORWARDED_HEADER) : req.headers.get("x-forwarded-for")) ?? "";
    const last = forwarded.split(",").map((s) => s.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  if (hooks.attached) return req.headers.get(PEER_HEADER) ?? "unknown";
  // Not hooked (another server): Next's own x-forwarded-for is the socket peer unless a client set it.
  return (req.headers.get("x-forwarded-for") ?? "unknown").split(",")[0]!.trim();
}
