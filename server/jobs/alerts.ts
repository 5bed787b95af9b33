import { config } from "../config";
import { jobRunner } from "./job-runner";

/**
 * Evaluates the alert rules and delivers due notifications on the job worker every
 * FAULTLINE_ALERT_INTERVAL_MS, off the request path. Several nodes each ask; the job lock runs one.
 * A run still going when the next is due is not doubled: the next waits for it.
 */
export function startAlerts(): void {
  const c = config();
  const job = {
    job: "alerts" as const,
    publicUrl: c.publicUrl,
    delivery: {
      allowPrivate: c.alertAllowPrivate,
      retryBaseMs: c.alertRetryBaseMs,
      retryCapMs: c.alertRetryCapMs,
      giveUpAfterMs: c.alertGiveUpMs,
      timeoutMs: c.alertTimeoutMs,
      smtp: c.smtp,
      batch: 50,
      budgetMs: 10_000,
    },
  };
  const tick = () => {
    jobRunner()
      .ask(job)
      .catch((error: unknown) => console.error("[faultline] alert evaluation failed; the next run retries", error))
      .finally(() => setTimeout(tick, c.alertIntervalMs).unref());
  };
  setTimeout(tick, c.alertIntervalMs).unref();
}
