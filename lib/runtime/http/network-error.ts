import { isCancellation } from "../common/abort";

/**
 * Where a network failure happened. `connect`: no byte of the request reached the server, so a
 * repeat cannot repeat a side effect. `in_flight`: the request may have been received and acted
 * on before the connection failed. `dns_missing`: the host does not exist; waiting will not help.
 */
export type NetworkPhase = "connect" | "in_flight" | "dns_missing";

/** A network failure recognised by its system or undici code. */
export interface NetworkFailure {
  /** The code found on the error or its causes, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  readonly code: string;
  readonly phase: NetworkPhase;
  /** Whether the failure was a timer running out rather than a refusal or a reset. */
  readonly timeout: boolean;
}

const PHASES: Readonly<Record<string, { phase: NetworkPhase; timeout?: true }>> = {
  ECONNREFUSED: { phase: "connect" },
  ETIMEDOUT: { phase: "connect", timeout: true },
  ENETUNREACH: { phase: "connect" },
  ENETDOWN: { phase: "connect" },
  EHOSTUNREACH: { phase: "connect" },
  EHOSTDOWN: { phase: "connect" },
  EAI_AGAIN: { phase: "connect" },
  UND_ERR_CONNECT_TIMEOUT: { phase: "connect", timeout: true },
  ENOTFOUND: { phase: "dns_missing" },
  ECONNRESET: { phase: "in_flight" },
  EPIPE: { phase: "in_flight" },
  UND_ERR_SOCKET: { phase: "in_flight" },
  UND_ERR_CLOSED: { phase: "in_flight" },
  UND_ERR_HEADERS_TIMEOUT: { phase: "in_flight", timeout: true },
  UND_ERR_BODY_TIMEOUT: { phase: "in_flight", timeout: true },
};

function read(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * Recognises a network failure by the code on the error or its `cause` chain (fetch wraps the
 * real failure as the cause of a generic `TypeError: fetch failed`), including the errors of an
 * `AggregateError` from a dual-stack connect. A `TypeError` without such a code is not a network
 * failure — it may be a bad URL or a bug — and gives `undefined`, as does a cancellation.
 */
export function recogniseNetworkFailure(error: unknown): NetworkFailure | undefined {
  if (isCancellation(error)) return undefined;
  const queue: unknown[] = [error];
  const seen = new Set<unknown>();
  // Bounded: causes can be cyclic or absurdly deep.
  for (let i = 0; i < queue.length && i < 16; i++) {
    const current = queue[i];
    if (seen.has(current)) continue;
    seen.add(current);
    const code = read(current, "code");
    if (typeof code === "string" && Object.hasOwn(PHASES, code)) {
      const known = PHASES[code]!;
      return { code, phase: known.phase, timeout: known.timeout === true };
    }
    const cause = read(current, "cause");
    if (cause !== undefined) queue.push(cause);
    const errors = read(current, "errors");
    if (Array.isArray(errors)) queue.push(...errors.slice(0, 8));
  }
  return undefined;
}
