import { LIMITS, type IngestRecord, type Resource } from "../../contracts";
import { sleepOn, systemClock, systemScheduler, type Cancel, type Sleep } from "../common/time";
import type { RecordSink } from "../record/sink";
import { RUNTIME_NAME, RUNTIME_VERSION } from "../version";
import { clampRecord, clampResource } from "./clamp";
import { canGzip, gzip } from "./gzip";
import { classifyAnswer } from "./answer";
import type { ExporterOptions } from "./exporter-options";
import { postOnce, type FetchLike } from "./http";
import { otlpBody, toOtlpSpan } from "./otlp";
import { parseRetryAfter } from "./retry-after";
import { emptyStats, type DropReason, type ExporterStats } from "./stats";

export type { ExporterOptions } from "./exporter-options";

type Entry = { json: string; bytes: number };
/**
 * A batch handed to `send`. `maybeStored` once a request carrying it may have reached the server;
 * `requesting` while a request for it is unanswered.
 */
type Batch = { entries: Entry[]; maybeStored: boolean; requesting?: boolean };

const encoder = new TextEncoder();
const byteLength = (s: string) => (/^[\x00-\x7f]*$/.test(s) ? s.length : encoder.encode(s).length);

/**
 * Batches records and sends them to Faultline. `record()` never throws and never blocks; a full
 * queue drops (and counts) instead of growing. Network errors, 429 and 5xx are retried with jitter
 * and `Retry-After`; every other answer is final. Timers are unref'd so an idle exporter never
 * keeps a process alive, but while `flush()` or `shutdown()` is awaited the process is kept alive
 * until it settles; call `shutdown()` before exit to flush.
 */
export class Exporter implements RecordSink {
  private readonly o: Required<Omit<ExporterOptions, "resource" | "onError" | "fetch">> & Pick<ExporterOptions, "onError">;
  private readonly gzipHeaders: Record<string, string>;
  private readonly fetch: FetchLike;
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly resource: Resource;
  private readonly resourceJson: string;
  private readonly sleep: Sleep;
  private readonly counters = emptyStats();
  private queue: Entry[] = [];
  private queueBytes = 0;
  private inflight = 0;
  private inflightBytes = 0;
  private timer: Cancel | undefined;
  private pumping: Promise<void> | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  private compressing: Promise<unknown> | undefined;
  private readonly inflightBatches = new Set<Batch>();
  private readonly stop = new AbortController();

  constructor(options: ExporterOptions) {
    this.o = {
      endpoint: options.endpoint.replace(/\/+$/, ""),
      apiKey: options.apiKey,
      format: options.format ?? "native",
      compression: options.compression !== "none" && canGzip() ? "gzip" : "none",
      clock: options.clock ?? systemClock,
      scheduler: options.scheduler ?? systemScheduler,
      random: options.random ?? Math.random,
      maxQueueSize: options.maxQueueSize ?? 2048,
      maxQueueBytes: options.maxQueueBytes ?? 8 * 1024 * 1024,
      maxBatchSize: Math.min(options.maxBatchSize ?? 100, LIMITS.maxRecords),
      maxBatchBytes: Math.min(options.maxBatchBytes ?? 1024 * 1024, LIMITS.maxBodyBytes),
      flushIntervalMs: options.flushIntervalMs ?? 5000,
      requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
      maxAttempts: options.maxAttempts ?? 5,
      baseBackoffMs: options.baseBackoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 300_000,
      onError: options.onError,
    };
    this.fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.url = `${this.o.endpoint}${this.o.format === "otlp" ? "/v1/traces" : "/api/v1/ingest"}`;
    this.headers = { "content-type": "application/json", authorization: `Bearer ${this.o.apiKey}` };
    this.gzipHeaders = { ...this.headers, "content-encoding": "gzip" };
    this.resource = clampResource({ sdk: { name: RUNTIME_NAME, version: RUNTIME_VERSION }, ...options.resource });
    this.resourceJson = JSON.stringify(this.resource);
    this.sleep = sleepOn(this.o.scheduler, { unref: true });
  }

  /** Queues one record. Never throws. */
  record(record: IngestRecord): void {
    try {
      this.counters.produced++;
      if (this.closed) return this.drop(1, "shutdown");
      let json: string;
      try {
        // Fields past the contract's bounds would be rejected by the server; cut them here instead.
        const fitted = clampRecord(record);
        if (fitted.clamped) this.counters.clamped++;
        json = JSON.stringify(this.o.format === "otlp" ? toOtlpSpan(fitted.record) : fitted.record);
      } catch {
        return this.drop(1, "serialize_error");
      }
      const bytes = byteLength(json);
      if (bytes > LIMITS.maxRecordBytes || bytes > this.o.maxBatchBytes) return this.drop(1, "record_too_large");
      if (this.queue.length + this.inflight >= this.o.maxQueueSize || this.queueBytes + this.inflightBytes + bytes > this.o.maxQueueBytes) {
        return this.drop(1, "queue_overflow");
      }
      this.queue.push({ json, bytes });
      this.queueBytes += bytes;
      if (this.full()) this.kick(false);
      else this.armTimer();
    } catch {
      // Telemetry must never break the agent.
    }
  }

  /** A snapshot of the counters; `produced === sent + queued + droppedTotal + unconfirmed` always holds. */
  stats(): ExporterStats {
    return { ...this.counters, dropped: { ...this.counters.dropped }, queued: this.queue.length + this.inflight, queuedBytes: this.queueBytes + this.inflightBytes };
  }

  /**
   * Sends everything queued now; resolves when the queue is empty, or at `timeoutMs` with the rest
   * still queued (it keeps being retried). Keeps the process alive until it settles, so an
   * `await exporter.flush()` at the end of a script always returns. Never rejects.
   */
  async flush(options: { timeoutMs?: number } = {}): Promise<void> {
    const release = this.keepAlive();
    let cancelDeadline: Cancel | undefined;
    try {
      const drained = this.drain();
      if (options.timeoutMs === undefined) return await drained;
      const deadline = new Promise<void>((resolve) => (cancelDeadline = this.o.scheduler.schedule(resolve, options.timeoutMs!, { unref: true })));
      await Promise.race([drained, deadline]);
    } catch {
      // see record()
    } finally {
      cancelDeadline?.();
      release();
    }
  }

  /**
   * Stops accepting records, flushes within `timeoutMs` (default 5 000), then accounts for what
   * could not be delivered in time: queued records are dropped as `shutdown`; a request still
   * unanswered is abandoned and its records counted as `unconfirmed` (the server may have stored
   * them). Resolves by the deadline (plus a short grace for aborted requests) even when the server
   * is unreachable, and keeps the process alive until then. Idempotent; never rejects.
   */
  shutdown(options: { timeoutMs?: number } = {}): Promise<void> {
    this.closing ??= this.close(options.timeoutMs ?? 5000);
    return this.closing;
  }

  private keepAlive(): Cancel {
    try {
      return this.o.scheduler.keepAlive?.() ?? (() => {});
    } catch {
      return () => {};
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 || this.pumping) {
      this.kick(true);
      await this.pumping;
    }
  }

  private async close(timeoutMs: number): Promise<void> {
    const release = this.keepAlive();
    try {
      this.closed = true;
      let cancelDeadline: Cancel = () => {};
      const deadline = new Promise<void>((resolve) => (cancelDeadline = this.o.scheduler.schedule(resolve, timeoutMs, { unref: true })));
      await Promise.race([this.drain().catch(() => {}), deadline]);
      cancelDeadline();
      if (this.queue.length + this.inflight === 0) return;
      this.stop.abort("shutdown");
      this.drop(this.queue.length, "shutdown");
      this.queue = [];
      this.queueBytes = 0;
      // Compression is bounded CPU work that cannot be aborted; once it ends the batch is settled as
      // dropped without a request, so shutdown never returns with it still counted as queued.
      await this.compressing?.catch(() => {});
      // An aborted request settles within a few ticks; a fetch that ignores its signal is not waited for.
      await Promise.race([this.pumping?.catch(() => {}), new Promise<void>((r) => this.o.scheduler.schedule(r, 50, { unref: true }))]);
      // Whatever is still in flight is accounted for now; its late answer changes nothing.
      for (const batch of [...this.inflightBatches]) {
        if (batch.requesting) batch.maybeStored = true;
        this.settle(batch, { rejected: batch.entries.length, reason: "shutdown" });
      }
    } catch {
      // see record()
    } finally {
      release();
    }
  }

  private full(): boolean {
    return this.queue.length >= this.o.maxBatchSize || this.queueBytes >= this.o.maxBatchBytes;
  }

  private armTimer(): void {
    if (this.timer || this.queue.length === 0) return;
    this.timer = this.o.scheduler.schedule(() => ((this.timer = undefined), this.kick(true)), this.o.flushIntervalMs, { unref: true });
  }

  /** Starts sending: every queued record when `all`, otherwise only full batches. */
  private kick(all: boolean): void {
    if (this.pumping || this.queue.length === 0) return;
    this.timer?.();
    this.timer = undefined;
    this.pumping = this.pump(all).finally(() => {
      this.pumping = undefined;
      // Records that arrived during the send wait for a full batch or the interval, not a request each.
      if (this.full()) this.kick(false);
      else this.armTimer();
    });
  }

  private async pump(all: boolean): Promise<void> {
    await null; // never call fetch synchronously inside record()
    while (this.queue.length > 0 && (all || this.full()) && !this.stop.signal.aborted) {
      let n = 0;
      let bytes = 0;
      while (n < this.queue.length && n < this.o.maxBatchSize && (n === 0 || bytes + this.queue[n]!.bytes <= this.o.maxBatchBytes)) {
        bytes += this.queue[n]!.bytes;
        n++;
      }
      const batch: Batch = { entries: this.queue.splice(0, n), maybeStored: false };
      this.queueBytes -= bytes;
      this.inflight += n;
      this.inflightBytes += bytes;
      this.inflightBatches.add(batch);
      await this.send(batch, false);
    }
  }

  private body(batch: Entry[]): string {
    const items = batch.map((e) => e.json);
    return this.o.format === "otlp" ? otlpBody(items, this.resource, RUNTIME_VERSION) : `{"resource":${this.resourceJson},"records":[${items.join(",")}]}`;
  }

  /**
   * Accounts for a batch exactly once: a second settle (a late answer after shutdown gave up on it)
   * is ignored. Records not delivered count as `unconfirmed` when a request carrying them may have
   * been stored, otherwise as dropped for `reason`.
   */
  private settle(batch: Batch, outcome: { rejected: number; reason?: DropReason; duplicates?: number }): void {
    if (!this.inflightBatches.delete(batch)) return;
    const n = batch.entries.length;
    this.inflight -= n;
    for (const e of batch.entries) this.inflightBytes -= e.bytes;
    const k = Math.min(Math.max(0, outcome.rejected), n);
    this.counters.sent += n - k;
    this.counters.duplicates += Math.min(Math.max(0, outcome.duplicates ?? 0), n - k);
    if (k === 0) return;
    const undeliverable = outcome.reason === "network_error" || outcome.reason === "server_error" || outcome.reason === "shutdown" || outcome.reason === "retry_after_too_long";
    if (batch.maybeStored && undeliverable) {
      this.counters.unconfirmed += k;
      this.report(`${k} record(s) unconfirmed: the server may have stored them but its answer was lost`);
    } else {
      this.drop(k, outcome.reason ?? "rejected");
    }
  }

  private drop(n: number, reason: DropReason): void {
    if (n <= 0) return;
    this.counters.dropped[reason] += n;
    this.counters.droppedTotal += n;
    if (reason !== "queue_overflow") this.report(`${n} record(s) dropped: ${reason}`);
  }

  private report(message: string): void {
    this.counters.lastError = message;
    try {
      this.o.onError?.(message);
    } catch {
      // see record()
    }
  }

  /** The request for a batch, compressed once and reused by its retries. */
  private async request(batch: Entry[]): Promise<{ url: string; headers: Record<string, string>; body: string | Uint8Array<ArrayBuffer> }> {
    const json = this.body(batch);
    if (this.o.compression === "gzip") {
      const compressing = gzip(json);
      this.compressing = compressing;
      try {
        return { url: this.url, headers: this.gzipHeaders, body: await compressing };
      } catch {
        this.report("gzip failed; sending this batch uncompressed");
      } finally {
        if (this.compressing === compressing) this.compressing = undefined;
      }
    }
    return { url: this.url, headers: this.headers, body: json };
  }

  private async send(batch: Batch, split: boolean): Promise<void> {
    const request = await this.request(batch.entries);
    if (this.stop.signal.aborted) return this.settle(batch, { rejected: batch.entries.length, reason: "shutdown" });
    for (let attempt = 1; ; attempt++) {
      this.counters.requests++;
      batch.requesting = true;
      const res = await postOnce(this.fetch, request, {
        timeoutMs: this.o.requestTimeoutMs,
        scheduler: this.o.scheduler,
        signal: this.stop.signal,
      });
      batch.requesting = false;
      if (res.kind === "network" && res.maybeDelivered) batch.maybeStored = true;
      if (this.stop.signal.aborted) return this.settle(batch, { rejected: batch.entries.length, reason: "shutdown" });
      const verdict = classifyAnswer(res, batch.entries.length);
      if (verdict.kind === "done" && verdict.message) this.report(verdict.message);
      if (verdict.kind === "done") return this.settle(batch, { rejected: verdict.rejected, reason: verdict.reason, duplicates: verdict.duplicates });
      if (verdict.kind === "split") {
        if (split || batch.entries.length < 2) return this.settle(batch, { rejected: batch.entries.length, reason: "payload_too_large" });
        const half = Math.ceil(batch.entries.length / 2);
        const halves = [batch.entries.slice(0, half), batch.entries.slice(half)].map((entries) => ({ entries, maybeStored: batch.maybeStored }));
        // The halves take over the parent's accounting.
        this.inflightBatches.delete(batch);
        for (const h of halves) this.inflightBatches.add(h);
        await this.send(halves[0]!, true);
        return this.send(halves[1]!, true);
      }
      this.report(verdict.message);
      if (attempt >= this.o.maxAttempts) return this.settle(batch, { rejected: batch.entries.length, reason: verdict.reason });
      const asked = res.kind === "response" ? parseRetryAfter(res.retryAfterHeader, this.o.clock.now()) : undefined;
      if (asked !== undefined && asked > this.o.maxRetryAfterMs) return this.settle(batch, { rejected: batch.entries.length, reason: "retry_after_too_long" });
      const window = Math.min(this.o.baseBackoffMs * 1.5 ** (attempt - 1), this.o.maxBackoffMs);
      const wait = asked ?? Math.round(window * (0.8 + 0.4 * this.o.random()));
      this.counters.retries++;
      try {
        await this.sleep(wait, this.stop.signal);
      } catch {
        return this.settle(batch, { rejected: batch.entries.length, reason: "shutdown" });
      }
    }
  }
}
