import type { Resource } from "../../contracts";
import type { Clock, Random, Scheduler } from "../common/time";
import type { FetchLike } from "./http";

/** Options of {@link Exporter}. */
export interface ExporterOptions {
  /** Faultline base URL, e.g. `http://127.0.0.1:3000`. */
  endpoint: string;
  /** Project ingest key, sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** What is true for every record; `sdk` defaults to this library. */
  resource?: Resource;
  /** `native` posts `{resource, records}` to `/api/v1/ingest`; `otlp` posts spans to `/v1/traces`. */
  format?: "native" | "otlp";
  /**
   * `gzip` compresses each request body with the platform `CompressionStream` and sends
   * `Content-Encoding: gzip`. Default `gzip` when `CompressionStream` exists, else `none`; asking
   * for `gzip` without it falls back to `none`. Batch byte limits count the uncompressed JSON.
   */
  compression?: "gzip" | "none";
  /** HTTP client. Default: the global `fetch`. */
  fetch?: FetchLike;
  /** Time source for `Retry-After` dates. Default: the wall clock. */
  clock?: Clock;
  /** Timers for the flush interval, backoff, request timeouts and shutdown. Default: `setTimeout`. */
  scheduler?: Scheduler;
  /** Jitter source for backoff. Default: `Math.random`. */
  random?: Random;
  /** Records held at most (waiting and in flight). Default 2048. */
  maxQueueSize?: number;
  /** Bytes held at most. Default 8 MiB. */
  maxQueueBytes?: number;
  /** Records per request. Default 100. */
  maxBatchSize?: number;
  /** Bytes per request. Default 1 MiB. */
  maxBatchBytes?: number;
  /** A partial batch waits at most this long. Default 5 000 ms. */
  flushIntervalMs?: number;
  /** Per-request timeout. Default 10 000 ms. */
  requestTimeoutMs?: number;
  /** Attempts per batch, first included. Default 5. */
  maxAttempts?: number;
  /** Backoff: base × 1.5^(n−1), capped, ±20% jitter. Defaults 1 000 / 30 000 ms. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** A `Retry-After` longer than this drops the batch instead of waiting. Default 300 000 ms. */
  maxRetryAfterMs?: number;
  /** Diagnostics hook; called with a short message, never with record contents. */
  onError?: (message: string) => void;
}
