import type { Store } from "@/db/client";
import { dueNotifications, recordAttempt, type AttemptNext } from "@/db/alerts/outbox";
import { nextAttemptDelay } from "@/lib/alerts/backoff";
import { readNotification } from "@/lib/alerts/notification";
import type { SmtpSettings } from "./email";
import { sendNotification } from "./send";

export interface DeliveryOptions {
  allowPrivate: boolean;
  retryBaseMs: number;
  retryCapMs: number;
  giveUpAfterMs: number;
  timeoutMs: number;
  /** Notifications per run, so one run cannot hold the job worker (and the drift folds queued behind it) for long. */
  batch: number;
  /** No new attempt starts after this long in one run; the rest stay due for the next. */
  budgetMs: number;
  /** Where email receivers send; null refuses them. */
  smtp?: SmtpSettings | null;
}

/**
 * Sends the notifications that are due, each attempt recorded with the receiver's status. 2xx is
 * delivered; 5xx, 408, 429, timeouts and connection errors are tried again later with exponential
 * backoff; any other answer ends the attempts. Answers the number of attempts made.
 */
export async function deliverDue(store: Store, o: DeliveryOptions): Promise<number> {
  const start = Date.now();
  const due = await dueNotifications(store, start, o.batch);
  // A receiver that failed once in this run is not tried again until the next: a receiver that
  // times out would otherwise cost a timeout per notification queued for it.
  const failing = new Set<string>();
  let attempts = 0;
  for (const n of due) {
    if (failing.has(n.url)) continue;
    if (Date.now() - start > o.budgetMs) break;
    attempts++;
    const started = Date.now();
    const r = await sendNotification(n, readNotification(n.body), n.id, n.key, { allowPrivate: o.allowPrivate, timeoutMs: o.timeoutMs, smtp: o.smtp ?? null });
    const now = Date.now();
    let next: AttemptNext;
    if (r.ok) next = { kind: "delivered" };
    else if (r.permanent) next = { kind: "gave_up" };
    else {
      const delay = nextAttemptDelay(n.attempts + 1, n.createdAt, now, { baseMs: o.retryBaseMs, capMs: o.retryCapMs, giveUpAfterMs: o.giveUpAfterMs });
      next = delay === null ? { kind: "gave_up" } : { kind: "retry", at: now + delay };
      failing.add(n.url);
    }
    await recordAttempt(store, n.id, { at: started, httpStatus: r.httpStatus, error: r.error, durationMs: now - started }, next);
  }
  return attempts;
}
