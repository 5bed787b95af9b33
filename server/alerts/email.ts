import nodemailer, { type Transporter } from "nodemailer";
import { notificationLines, notificationText, type AlertNotification } from "@/lib/alerts/notification";
import type { SendResult } from "./send-result";

/** The server's SMTP settings (FAULTLINE_SMTP_URL, FAULTLINE_SMTP_FROM). */
export interface SmtpSettings {
  url: string;
  from: string;
}

// One pooled-free transport per SMTP URL and timeout: nodemailer opens a connection per message,
// which is what a handful of alerts a minute needs, and keeps no socket open between runs.
const transports = new Map<string, Transporter>();

function transportFor(smtp: SmtpSettings, timeoutMs: number): Transporter {
  const key = `${smtp.url}\u0000${timeoutMs}`;
  let t = transports.get(key);
  if (!t) {
    t = nodemailer.createTransport({ url: smtp.url, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs } as never);
    transports.set(key, t);
  }
  return t;
}

/** The recipients of an email receiver, kept in its URL as `mailto:a@x,b@y`. */
export const emailRecipients = (url: string) => url.replace(/^mailto:/i, "").split(",").map((a) => decodeURIComponent(a.trim())).filter((a) => a !== "");

/**
 * Sends one notification as a plain-text email: the one-line text as the subject, the summary, the
 * facts, the runs and the link as the body. A 4xx SMTP answer (or no answer) is tried again later;
 * a 5xx answer (an unknown mailbox, a refused sender) is not.
 */
export async function sendEmail(smtp: SmtpSettings | null, url: string, n: AlertNotification, notificationId: number, timeoutMs: number): Promise<SendResult> {
  if (!smtp) return { ok: false, httpStatus: null, error: "no SMTP server is configured (FAULTLINE_SMTP_URL)", permanent: true };
  try {
    await transportFor(smtp, timeoutMs).sendMail({
      from: smtp.from,
      to: emailRecipients(url),
      subject: notificationText(n),
      text: notificationLines(n).join("\n"),
      headers: { "X-Faultline-Notification-Id": String(notificationId) },
    });
    return { ok: true, httpStatus: null, error: null, permanent: false };
  } catch (error) {
    const e = error as Error & { responseCode?: number; code?: string; response?: string };
    if (typeof e.responseCode === "number") {
      return { ok: false, httpStatus: null, error: `SMTP ${e.responseCode}: ${(e.response ?? e.message).slice(0, 300)}`, permanent: e.responseCode >= 500 };
    }
    return { ok: false, httpStatus: null, error: e.code ?? e.message, permanent: false };
  }
}
