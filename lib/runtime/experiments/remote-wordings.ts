import { systemClock, systemScheduler, type Clock, type Scheduler } from "../common/time";
import type { FetchResponseLike } from "../export/http";
import { WordingSet, type WordingSource } from "./wording-set";

/** The subset of `fetch` the wording refresh uses; global `fetch` fits. */
export type WordingFetch = (url: string, init: { method: "GET"; headers: Record<string, string>; signal: AbortSignal }) => Promise<FetchResponseLike>;

/** Default of {@link RemoteWordingsOptions.ttlMs}. */
export const DEFAULT_WORDINGS_TTL_MS = 60_000;

/** Options of {@link RemoteWordings}. */
export interface RemoteWordingsOptions {
  /** Faultline's base URL, e.g. `https://faultline.example.com`. */
  baseUrl: string;
  project: string;
  /** A read key of the project (`npm run keys -- create --read`); an ingest key is refused. */
  apiKey: string;
  /** How long a fetched set is used before it is asked for again. Default {@link DEFAULT_WORDINGS_TTL_MS}. */
  ttlMs?: number;
  /**
   * How long the last set Faultline answered stays in use while Faultline cannot be reached; after
   * that the local map applies again, so a stopped experiment does not run on forever. Default 10 × `ttlMs`.
   */
  maxStaleMs?: number;
  /** Longest wait for one request. Default 5 000 ms. */
  timeoutMs?: number;
  clock?: Clock;
  scheduler?: Scheduler;
  fetch?: WordingFetch;
  /** Told what went wrong when a refresh failed; the previous set (or the local map) stays in use. Must not throw. */
  onError?: (error: unknown) => void;
}

/**
 * The project's wording set from Faultline, refreshed in the background: `current()` answers at once
 * with the last set Faultline gave (undefined before the first answer, or once it is older than
 * `maxStaleMs`, so the local map applies) and, when the set is older than the TTL, starts one
 * conditional request (`If-None-Match`). A failed, slow or malformed answer keeps what was there:
 * nothing here ever throws into agent code.
 */
export class RemoteWordings implements WordingSource {
  private set: WordingSet | undefined;
  private etag: string | null = null;
  /** When the set was last confirmed by Faultline (200 or 304). */
  private confirmedAt = Number.NEGATIVE_INFINITY;
  /** When the last request was started; a failed one waits a TTL before the next. */
  private askedAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<void> | undefined;
  private readonly url: string;
  private readonly ttlMs: number;
  private readonly maxStaleMs: number;
  private readonly timeoutMs: number;
  private readonly clock: Clock;
  private readonly scheduler: Scheduler;
  private readonly fetch: WordingFetch;

  constructor(private readonly options: RemoteWordingsOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, "")}/api/v1/wordings?project=${encodeURIComponent(options.project)}`;
    this.ttlMs = options.ttlMs ?? DEFAULT_WORDINGS_TTL_MS;
    this.maxStaleMs = options.maxStaleMs ?? 10 * this.ttlMs;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.clock = options.clock ?? systemClock;
    this.scheduler = options.scheduler ?? systemScheduler;
    this.fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  }

  /** The set to use now; starts a background refresh when it is older than the TTL. */
  current(): WordingSet | undefined {
    const now = this.clock.now();
    if (now - this.askedAt >= this.ttlMs && now - this.confirmedAt >= this.ttlMs) void this.refresh();
    return now - this.confirmedAt <= this.maxStaleMs ? this.set : undefined;
  }

  /** Asks Faultline now (one request at a time); resolves when it is answered or has failed. Never rejects. */
  refresh(): Promise<void> {
    this.inFlight ??= this.ask().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async ask(): Promise<void> {
    this.askedAt = this.clock.now();
    const controller = new AbortController();
    const cancel = this.scheduler.schedule(() => controller.abort(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs, { unref: true });
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: "application/json" };
      if (this.etag !== null) headers["if-none-match"] = this.etag;
      const res = await this.fetch(this.url, { method: "GET", headers, signal: controller.signal });
      if (res.status === 304 && this.set) {
        this.confirmedAt = this.clock.now();
        return;
      }
      if (res.status !== 200) throw new Error(`GET ${this.url} answered ${res.status}`);
      const set = WordingSet.parse(JSON.parse(await res.text()));
      this.set = set;
      this.etag = res.headers.get("etag");
      this.confirmedAt = this.clock.now();
    } catch (error) {
      try {
        this.options.onError?.(error);
      } catch {
        // A throwing listener must not turn a failed refresh into an agent failure.
      }
    } finally {
      cancel();
    }
  }
}
