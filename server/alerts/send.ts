import { createHash } from "node:crypto";
import { lookup } from "node:dns/promises";
import { retryableStatus } from "@/lib/alerts/backoff";
import { slackBody, type AlertNotification } from "@/lib/alerts/notification";
import { pagerDutyEvent } from "@/lib/alerts/pagerduty";
import { checkWebhookUrl, isPrivateAddress } from "@/lib/alerts/webhook-url";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";
import { sendEmail, type SmtpSettings } from "./email";
import type { SendResult } from "./send-result";
import { NOTIFICATION_ID_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signature } from "./sign";


/** Where a notification goes. */
export interface SendTarget {
  url: string;
  format: AlertReceiverFormat;
  /** The HMAC key of a webhook; the routing (integration) key of a PagerDuty receiver. */
  secret: string;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  smtp: SmtpSettings | null;
}

/**
 * One incident per rule and key (tool, code, finding): a trigger and its resolve carry the same
 * key, so PagerDuty groups repeats and closes the incident. Hashed: keys can be long and hold any text.
 */
export function pagerDutyDedupKey(project: string, ruleId: number, stateKey: string): string {
  return `faultline:${project}:${ruleId}:${createHash("sha256").update(stateKey).digest("hex").slice(0, 32)}`;
}

/** The body an HTTP receiver gets: the notification itself, Slack's text + blocks, or a PagerDuty event. */
export function renderHttpBody(target: SendTarget, n: AlertNotification, notificationId: number, stateKey: string): string {
  if (target.format === "slack") return JSON.stringify(slackBody(n));
  if (target.format === "pagerduty") return JSON.stringify(pagerDutyEvent(n, target.secret, pagerDutyDedupKey(n.project, n.rule.id, stateKey)));
  return JSON.stringify({ id: notificationId, ...n });
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

async function sendHttp(target: SendTarget, n: AlertNotification, notificationId: number, stateKey: string, o: SendOptions): Promise<SendResult> {
  const url = new URL(target.url);
  try {
    const refused = await refusedAddress(url, o.allowPrivate);
    if (refused) return { ok: false, httpStatus: null, error: refused, permanent: true };
  } catch (error) {
    return { ok: false, httpStatus: null, error: `DNS lookup failed: ${(error as Error).message}`, permanent: false };
  }
  const body = renderHttpBody(target, n, notificationId, stateKey);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "faultline-alerts",
        // PagerDuty authenticates by the routing key in the body; webhooks verify the signature.
        ...(target.format === "pagerduty" ? {} : { [TIMESTAMP_HEADER]: String(timestamp), [SIGNATURE_HEADER]: signature(target.secret, timestamp, body) }),
        [NOTIFICATION_ID_HEADER]: String(notificationId),
      },
      body,
      // Following a redirect could lead to an address the URL check never saw.
      redirect: "manual",
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    await res.body?.cancel();
    return { ok: res.ok, httpStatus: res.status, error: null, permanent: !res.ok && !retryableStatus(res.status) };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    const what = e.name === "TimeoutError" ? `no answer within ${o.timeoutMs} ms` : (e.cause?.code ?? e.message);
    return { ok: false, httpStatus: null, error: what, permanent: false };
  }
}

/** Makes one attempt to hand a notification to its receiver, whatever the receiver's kind. */
export function sendNotification(target: SendTarget, n: AlertNotification, notificationId: number, stateKey: string, o: SendOptions): Promise<SendResult> {
  return target.format === "email" ? sendEmail(o.smtp, target.url, n, notificationId, o.timeoutMs) : sendHttp(target, n, notificationId, stateKey, o);
}
