/** A subscription that can be cancelled. */
export interface IDisposable {
  /** Stops delivering events to the listener. */
  dispose(): void;
}

/** Subscribes a listener; call `dispose()` on the result to unsubscribe (cockatiel style). */
export type Event<T> = (listener: (value: T) => void) => IDisposable;

/**
 * Holds the listeners of one event. Owners keep the emitter private and expose only
 * {@link EventEmitter.addListener} as a public `Event`.
 */
export class EventEmitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** Number of current listeners; lets callers skip building payloads nobody reads. */
  get size(): number {
    return this.listeners.size;
  }

  /** Adds a listener. */
  readonly addListener: Event<T> = (listener) => {
    const wrapped = (value: T) => listener(value);
    this.listeners.add(wrapped);
    return { dispose: () => void this.listeners.delete(wrapped) };
  };

  /** Delivers `value` to every listener. A throwing listener never breaks the run loop. */
  emit(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch {
        // Observers are telemetry; their bugs must not change what the agent does.
      }
    }
  }
}
