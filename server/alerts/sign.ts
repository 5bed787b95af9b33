import { createHmac } from "node:crypto";

/** Headers of a signed delivery (docs/alerts.md shows how a receiver verifies them). */
export const SIGNATURE_HEADER = "x-faultline-signature";
export const TIMESTAMP_HEADER = "x-faultline-timestamp";
export const NOTIFICATION_ID_HEADER = "x-faultline-notification-id";

/** `v1=` + hex HMAC-SHA256 of `timestamp + "." + body` under the receiver's secret; the timestamp is in Unix seconds. */
export function signature(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}
