import { buildNotification, type AlertNotification } from "@/lib/alerts/notification";
import type { AlertReceiver, AlertReceiverTestAnswer } from "@/lib/contracts/alerts";
import { sendNotification, type SendOptions } from "./send";

/** A notification that says it is a test, with every field a real one has, so the receiver's formatting can be checked. */
export function testNotification(receiver: AlertReceiver, now: number, publicUrl: string, status: "firing" | "resolved"): AlertNotification {
  return buildNotification(
    { id: 0, name: "Test notification", kind: "failure_rate", project: receiver.project },
    { status, tool: "faultline-test", code: "test_notification", value: `a test sent to receiver "${receiver.name}" from Faultline` },
    now,
    publicUrl,
    {
      summary: `A test notification for receiver "${receiver.name}": if you read this, alerts reach it. Nothing is failing.`,
      threshold: "none: a test",
      since: now,
      durationMs: status === "resolved" ? 0 : null,
      context: { codes: [], releases: [], environments: [], runs: [], firstAt: now },
    },
  );
}

/**
 * Sends a test to a receiver now, outside the outbox (nothing is retried or kept): the answer says
 * whether it arrived. A PagerDuty test triggers and then resolves its own incident, so it leaves
 * nothing open.
 */
export async function sendTestNotification(
  receiver: AlertReceiver & { secret: string },
  o: SendOptions & { publicUrl: string; now: number },
): Promise<AlertReceiverTestAnswer> {
  const started = Date.now();
  const key = JSON.stringify(["faultline-test", String(receiver.id), String(o.now)]);
  const fired = await sendNotification(receiver, testNotification(receiver, o.now, o.publicUrl, "firing"), 0, key, o);
  const result = fired.ok && receiver.format === "pagerduty" ? await sendNotification(receiver, testNotification(receiver, o.now, o.publicUrl, "resolved"), 0, key, o) : fired;
  return { delivered: result.ok, httpStatus: result.httpStatus, error: result.error, durationMs: Date.now() - started };
}
