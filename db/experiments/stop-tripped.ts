import { EXPERIMENT_ALPHA } from "@/lib/contracts/experiments";
import { guardNotification } from "@/lib/experiments/guard-notification";
import { variantSums } from "@/lib/experiments/stats";
import { verdictOf } from "@/lib/experiments/verdict";
import { auditedChange, noChange } from "../audit/audited-change";
import type { AuditActor } from "../audit/audit-actor";
import type { Store } from "../client";
import { listRunningExperiments, setExperimentState } from "./experiment-rows";
import { variantCounts } from "./variant-counts";

/** The job acts on its own: no user, no address. */
const JOB_ACTOR: AuditActor = { actorUserId: null, actorLabel: "faultline", address: null };

/**
 * Stops every running experiment whose guard tripped (lib/experiments/verdict.ts): in one
 * transaction each, the state moves to stopped_inconclusive with the verdict as its reason, the
 * audit log says so (actor `faultline`), and one firing notification per receiver of the project
 * goes into the alert outbox, delivered like every alert. Answers how many it stopped.
 */
export async function stopTrippedExperiments(store: Store, now: number, publicUrl: string): Promise<number> {
  let stopped = 0;
  for (const e of await listRunningExperiments(store)) {
    const sums = variantSums(e.variants.map((v) => v.id), await variantCounts(store, e));
    const verdict = verdictOf(sums, e.guards, EXPERIMENT_ALPHA);
    if (verdict.kind !== "guard_tripped") continue;
    const done = await auditedChange(store, JOB_ACTOR, now, async (tx) => {
      if (!(await setExperimentState(tx, e.project, e.id, "running", { state: "stopped_inconclusive", stoppedAt: now, stopReason: verdict.message }, now))) {
        return { result: false, audit: noChange("an admin changed the experiment meanwhile") };
      }
      const body = JSON.stringify(guardNotification(e, verdict, now, publicUrl));
      const receivers = await tx.all<{ id: number | string }>("SELECT id FROM alert_receivers WHERE project_id = ? ORDER BY id", [e.project]);
      // No receiver: the notification is still kept (unsent), as a rule without a receiver keeps its history.
      for (const r of receivers.length > 0 ? receivers.map((x) => Number(x.id)) : [null]) {
        await tx.run(
          `INSERT INTO alert_outbox (project_id, rule_id, rule_name, receiver_id, key, status, body, created_at, attempts, next_attempt_at)
           VALUES (?, 0, ?, ?, ?, 'firing', ?, ?, 0, ?)`,
          [e.project, `Experiment guard: ${e.id}`, r, `experiment:${e.id}`, body, now, r === null ? null : now],
        );
      }
      return {
        result: true,
        audit: { projectId: e.project, action: "experiment.stopped" as const, target: e.id, detail: { from: "running", to: "stopped_inconclusive", guard: verdict.metric, variant: verdict.variant, reason: verdict.message } },
      };
    });
    if (done) stopped++;
  }
  return stopped;
}
