import { randomBytes } from "node:crypto";
import { PAGERDUTY_EVENTS_URL } from "@/lib/alerts/pagerduty";
import { checkWebhookUrl } from "@/lib/alerts/webhook-url";
import type { AlertReceiverCreate } from "@/lib/contracts/alerts";
import { ApiError } from "../http/api-error";
import type { SmtpSettings } from "./email";

/** What a receiver stores: where it sends, its secret, and the secret to show once (null when the caller gave it or none is shown). */
export interface ReceiverTarget {
  url: string;
  secret: string;
  shownSecret: string | null;
}

const refuse = (field: string, reason: string): never => {
  throw new ApiError("bad_request", `invalid ${field}: ${reason}`, [{ path: field, message: reason }]);
};

/**
 * Checks a new receiver and decides what it stores. Webhooks and PagerDuty go through the same URL
 * check as at every delivery (no loopback or private address unless allowed); PagerDuty keeps its
 * routing key as the receiver's secret; email keeps its recipients as a `mailto:` URL and needs the
 * server's SMTP settings.
 */
export function receiverTarget(body: AlertReceiverCreate, o: { allowPrivate: boolean; smtp: SmtpSettings | null }): ReceiverTarget {
  if (body.format === "email") {
    if (!o.smtp) refuse("format", "email receivers need an SMTP server: set FAULTLINE_SMTP_URL (and FAULTLINE_SMTP_FROM)");
    return { url: `mailto:${(body.to ?? []).map(encodeURIComponent).join(",")}`, secret: randomBytes(24).toString("base64url"), shownSecret: null };
  }
  const checked = checkWebhookUrl(body.url ?? PAGERDUTY_EVENTS_URL, o.allowPrivate);
  if (!checked.ok) return refuse("url", checked.reason);
  if (body.format === "pagerduty") return { url: checked.url.href, secret: body.routingKey ?? "", shownSecret: null };
  const secret = body.secret ?? randomBytes(24).toString("base64url");
  return { url: checked.url.href, secret, shownSecret: secret };
}
