/** A subscription that can be cancelled. */
export interface IDisposable {
  /** Stops delivering events to the listener. */
  dispose(): void;
}

/** Subscribes a listener; call `dispose()` on the result to unsubscribe (cockatiel style). */
export type Event<T> = (listener: (value: T) => void) => IDisposable;

/**
 * Receives an exception a listener threw, with the name of the event it was listening to. It is
 * itself isolated: if it throws too, that is swallowed.
 */
export type ListenerErrorHandler = (error: unknown, event: string) => void;

/**
 * Holds the listeners of one event. Owners keep the emitter private and expose only
 * {@link EventEmitter.addListener} as a public `Event`.
 *
 * Listener exceptions are isolated: they never reach the code that emitted the event (the run
 * loop, a breaker), the other listeners still run, and each one is counted in
 * {@link EventEmitter.listenerErrors} and passed to the optional `onListenerError` handler.
 */
export class EventEmitter<T> {
  private readonly listeners = new Set<(value: T) => void>();
  private errors = 0;

  constructor(
    /** Name passed to `onListenerError`, e.g. `onRetry`. */
    readonly name = "event",
    private readonly onListenerError?: ListenerErrorHandler,
  ) {}

  /** Number of current listeners; lets callers skip building payloads nobody reads. */
  get size(): number {
    return this.listeners.size;
  }

  /** Exceptions listeners have thrown so far (all swallowed). */
  get listenerErrors(): number {
    return this.errors;
  }

  /** Adds a listener. Adding the same function twice delivers each event to it twice. */
  readonly addListener: Event<T> = (listener) => {
    const wrapped = (value: T) => listener(value);
    this.listeners.add(wrapped);
    return { dispose: () => void this.listeners.delete(wrapped) };
  };

  /** Delivers `value` to every listener subscribed before the call and still subscribed. Never throws. */
  emit(value: T): void {
    if (this.listeners.size === 0) return;
    // A snapshot, so a listener subscribed during delivery waits for the next event; one disposed
    // during delivery is skipped.
    for (const listener of [...this.listeners]) {
      if (!this.listeners.has(listener)) continue;
      try {
        listener(value);
      } catch (error) {
        // Observers are telemetry; their bugs must not change what the agent does.
        this.errors++;
        try {
          this.onListenerError?.(error, this.name);
        } catch {
          // The reporter is telemetry as well.
        }
      }
    }
  }
}
