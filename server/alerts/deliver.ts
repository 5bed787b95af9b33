import { lookup } from "node:dns/promises";
import type { Store } from "@/db/client";
import { dueNotifications, recordAttempt, type AttemptNext, type DueNotification } from "@/db/alerts/outbox";
import { nextAttemptDelay, retryableStatus } from "@/lib/alerts/backoff";
import { slackBody, type AlertNotification } from "@/lib/alerts/notification";
import { checkWebhookUrl, isPrivateAddress } from "@/lib/alerts/webhook-url";
import { NOTIFICATION_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signature } from "./sign";

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
}

/** The body a receiver gets: the notification itself, or Slack's text + blocks. */
export function renderBody(n: DueNotification): string {
  const notification = JSON.parse(n.body) as AlertNotification;
  return JSON.stringify(n.format === "slack" ? slackBody(notification) : { id: n.id, ...notification });
}

/** A public name may resolve to a private address: checked at each attempt, not only when the URL was saved. */
async function refusedAddress(url: URL, allowPrivate: boolean): Promise<string | null> {
  const checked = checkWebhookUrl(url.href, allowPrivate);
  if (!checked.ok) return checked.reason;
  if (allowPrivate) return null;
  const addresses = await lookup(url.hostname.replace(/^\[(.*)\]$/, "$1"), { all: true });
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  return bad ? `${url.hostname} resolves to ${bad.address}, a loopback or private address; set FAULTLINE_ALERT_ALLOW_PRIVATE=1 to allow it` : null;
}

async function attempt(n: DueNotification, o: DeliveryOptions): Promise<{ httpStatus: number | null; error: string | null; permanent: boolean }> {
  const url = new URL(n.url);
  try {
    const refused = await refusedAddress(url, o.allowPrivate);
    if (refused) return { httpStatus: null, error: refused, permanent: true };
  } catch (error) {
    return { httpStatus: null, error: `DNS lookup failed: ${(error as Error).message}`, permanent: false };
  }
  const body = renderBody(n);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "faultline-alerts",
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signature(n.secret, timestamp, body),
        [NOTIFICATION_ID_HEADER]: String(n.id),
      },
      body,
      // Following a redirect could lead to an address the URL check never saw.
      redirect: "manual",
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    await res.body?.cancel();
    if (res.ok) return { httpStatus: res.status, error: null, permanent: false };
    return { httpStatus: res.status, error: null, permanent: !retryableStatus(res.status) };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    const what = e.name === "TimeoutError" ? `no answer within ${o.timeoutMs} ms` : (e.cause?.code ?? e.message);
    return { httpStatus: null, error: what, permanent: false };
  }
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
    const r = await attempt(n, o);
    const now = Date.now();
    let next: AttemptNext;
    if (r.httpStatus !== null && r.httpStatus >= 200 && r.httpStatus < 300) next = { kind: "delivered" };
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
