/** Why a record never reached the server (or was refused by it for good). */
export const DROP_REASONS = [
  "queue_overflow",
  "record_too_large",
  "serialize_error",
  "rejected",
  "payload_too_large",
  "client_error",
  "network_error",
  "server_error",
  "retry_after_too_long",
  "shutdown",
] as const;
/** One drop reason. */
export type DropReason = (typeof DROP_REASONS)[number];

/**
 * Exporter counters. Invariant at every moment:
 * `produced === sent + queued + droppedTotal + unconfirmed`, where `queued` includes records in a
 * request that has not been answered yet.
 */
export interface ExporterStats {
  /** Records handed to `record()`. */
  produced: number;
  /** Records the server accepted (duplicates included: they are stored once). */
  sent: number;
  /** Of `sent`, those the server reported as duplicates. */
  duplicates: number;
  /** Waiting or in flight. */
  queued: number;
  /** Bytes of the queued records' JSON. */
  queuedBytes: number;
  dropped: Record<DropReason, number>;
  droppedTotal: number;
  /**
   * Records given up on whose delivery is unknown: a request carrying them may have been stored,
   * but its answer was lost (reset, timeout, shutdown mid-request) and no later attempt confirmed
   * it. Neither sent nor dropped; the server's idempotency makes a later resend harmless.
   */
  unconfirmed: number;
  /** Records sent with a field cut or hashed to fit the wire contract's bounds. */
  clamped: number;
  /** HTTP requests made, retries included. */
  requests: number;
  retries: number;
  /** Last problem seen, for diagnostics (never thrown). */
  lastError: string | undefined;
}

/** A zeroed stats object. */
export function emptyStats(): ExporterStats {
  return {
    produced: 0,
    sent: 0,
    duplicates: 0,
    queued: 0,
    queuedBytes: 0,
    dropped: Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<DropReason, number>,
    droppedTotal: 0,
    unconfirmed: 0,
    clamped: 0,
    requests: 0,
    retries: 0,
    lastError: undefined,
  };
}
