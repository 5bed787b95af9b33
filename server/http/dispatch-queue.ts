/** Iterations in a row a request may wait while connections are being accepted. */
export const MAX_DEFERRALS = 64;

/**
 * Starts the ingest requests the door let in one per event-loop iteration, in the order they came.
 *
 * Why not at once: Node hands a request to its handler the moment it parses the headers, and with
 * the body already buffered and SQLite answering synchronously the whole request runs before the
 * loop reads the next socket. A loop iteration that finds 100 ready sockets then serves 100 requests
 * back to back, and libuv accepts only one new connection per iteration (libuv PR #3696): under a
 * flood, new connections waited in the kernel's accept queue for longer than the clients' time-out,
 * unseen by the door, and their requests were served after the clients had gone. Parked here, a
 * request costs nothing until its turn; each iteration serves one and otherwise only accepts, reads
 * and judges (at the door) what arrived, so iterations stay one request long and every arrival is
 * seen within one.
 *
 * One connection per iteration is still slow when a request takes 100 ms on a busy machine and a
 * flood opens 200 connections at once, so while the iteration before accepted one (`accepting`),
 * the next request waits another iteration, at most `MAX_DEFERRALS` in a row: an iteration that
 * only accepts and reads costs microseconds, and a connection that waits its turn in the kernel
 * waits unseen.
 *
 * Pure bookkeeping over the scheduler it is handed (`setImmediate` in the server: a callback queued
 * from a check-phase callback runs in the next iteration); tests hand in their own.
 */
export class DispatchQueue {
  private readonly waiting: (() => void)[] = [];
  private head = 0;
  private scheduled = false;
  private deferrals = 0;

  constructor(
    private readonly schedule: (run: () => void) => void,
    /** Whether a connection was accepted since the last call (more may wait in the kernel). */
    private readonly accepting: () => boolean = () => false,
  ) {}

  /** Requests parked and not yet started. */
  get length(): number {
    return this.waiting.length - this.head;
  }

  /** Parks `start` behind the requests already waiting. */
  push(start: () => void): void {
    this.waiting.push(start);
    this.arm();
  }

  private arm(): void {
    if (this.scheduled || this.length === 0) return;
    this.scheduled = true;
    this.schedule(() => this.startNext());
  }

  private startNext(): void {
    this.scheduled = false;
    if (this.accepting() && this.deferrals < MAX_DEFERRALS) {
      this.deferrals++;
      this.arm();
      return;
    }
    this.deferrals = 0;
    const start = this.waiting[this.head];
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting.splice(0, this.head);
      this.head = 0;
    }
    // Armed before the start runs, so a start that throws does not strand the ones behind it.
    this.arm();
    start?.();
  }
}
