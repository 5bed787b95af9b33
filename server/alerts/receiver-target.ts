import { randomBytes } from "node:crypto";
import { PAGERDUTY_EVENTS_URL } from "@/lib/alerts/pagerduty";
import { checkWebhookUrl } from "@/lib/alerts/webhook-url";
import type { AlertReceiverCreate, AlertReceiverPatch } from "@/lib/contracts/alerts";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";
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

/**
 * What an edit changes: a new name, or a new target checked as on creation (the URL of a webhook or
 * PagerDuty receiver, a PagerDuty routing key, an email receiver's recipients). A field another kind
 * uses is refused rather than ignored.
 */
export function receiverChange(format: AlertReceiverFormat, patch: AlertReceiverPatch, allowPrivate: boolean): { name?: string; url?: string; secret?: string } {
  const out: { name?: string; url?: string; secret?: string } = {};
  if (patch.name !== undefined) out.name = patch.name;
  if (patch.to !== undefined) {
    if (format !== "email") refuse("to", "only email receivers have recipients");
    out.url = `mailto:${patch.to.map(encodeURIComponent).join(",")}`;
  }
  if (patch.routingKey !== undefined) {
    if (format !== "pagerduty") refuse("routingKey", "only PagerDuty receivers have a routing key");
    out.secret = patch.routingKey;
  }
  if (patch.url !== undefined) {
    if (format === "email") refuse("url", "an email receiver sends to its recipients: give `to`");
    const checked = checkWebhookUrl(patch.url, allowPrivate);
    if (!checked.ok) return refuse("url", checked.reason);
    out.url = checked.url.href;
  }
  return out;
}
