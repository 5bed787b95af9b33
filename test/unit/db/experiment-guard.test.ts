import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "@/db/client";
import { createAlertReceiver } from "@/db/alerts/receivers";
import { getExperiment, insertExperiment, setExperimentState } from "@/db/experiments/experiment-rows";
import { stopTrippedExperiments } from "@/db/experiments/stop-tripped";
import { variantCounts } from "@/db/experiments/variant-counts";
import type { ToldStep } from "@/lib/contracts/told";
import { ingestNativeBatch } from "@/test/helpers/ingest";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";
import { allRecords } from "@/test/helpers/told-runs";

const T = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 5 * 86_400_000;
const P = "p";
const GUARDS = { repeatRate: 0.1, runFailedRate: 0.1, callsUntilRecovery: 1 };
const VARIANTS = [{ id: "a", text: "wording A", weight: 50 }, { id: "b", text: "wording B", weight: 50 }];

/** `n` told runs of `experiment`'s `variant` whose next step is `next`. */
function runs(experiment: string, code: string, variant: string, next: ToldStep, n: number, from: number) {
  return Array.from({ length: n }, (_, i) =>
    allRecords({ runId: `${experiment}-${variant}-${next}-${i}`, release: "1.0.0", tool: "book_flight", code, told: `error: ${code}: wording ${variant}`, next, at: T + (from + i) * 2000 }).map((r) =>
      r.type === "tool_error" ? { ...r, experiment, variant } : r,
    ),
  ).flat();
}

describe.each(DIALECTS)("experiment guards (%s)", (dialect) => {
  let store: Store;
  afterEach(async () => {
    await store?.close();
  });

  it("stops the experiment whose challenger makes the model repeat itself, audits it and queues an alert per receiver; leaves a healthy one running", async () => {
    store = await openTestStore(dialect);
    await store.run("INSERT INTO projects (id, name, created_at) VALUES (?, 'P', 0)", [P]);
    const receiver = await store.transaction((tx) => createAlertReceiver(tx, { project: P, name: "hook", url: "https://hooks.example/x", format: "json", secret: "s".repeat(32) }, T));
    for (const [id, code] of [["loud", "sold_out"], ["calm", "bad_date"]] as const) {
      await insertExperiment(store, P, { id, code, tool: null, variants: VARIANTS, guards: GUARDS }, T);
      await setExperimentState(store, P, id, "draft", { state: "running", startedAt: T }, T);
    }
    await ingestNativeBatch(store, P, undefined, [
      ...runs("loud", "sold_out", "a", "recovered", 50, 0), ...runs("loud", "sold_out", "a", "gave_up", 50, 50),
      ...runs("loud", "sold_out", "b", "recovered", 50, 100), ...runs("loud", "sold_out", "b", "repeated", 50, 150),
      ...runs("calm", "bad_date", "a", "recovered", 50, 200), ...runs("calm", "bad_date", "a", "gave_up", 50, 250),
      ...runs("calm", "bad_date", "b", "recovered", 55, 300), ...runs("calm", "bad_date", "b", "gave_up", 45, 355),
    ]);
    const loud = (await getExperiment(store, P, "loud"))!;
    const counts = await variantCounts(store, loud);
    expect(counts.map((c) => [c.variant, c.step, c.errors])).toEqual([["a", "gave_up", 50], ["a", "recovered", 50], ["b", "recovered", 50], ["b", "repeated", 50]]);

    const now = T + 1_000_000;
    expect(await stopTrippedExperiments(store, now, "https://faultline.example")).toBe(1);
    expect(await getExperiment(store, P, "loud")).toMatchObject({ state: "stopped_inconclusive", stoppedAt: now, stopReason: expect.stringContaining("b worsens repeatRate by 50 points against a") });
    expect((await getExperiment(store, P, "calm"))!.state).toBe("running");
    const outbox = await store.all<{ receiver_id: number | string; rule_name: string; status: string; body: string }>("SELECT receiver_id, rule_name, status, body FROM alert_outbox WHERE project_id = ?", [P]);
    expect(outbox.map((o) => [Number(o.receiver_id), o.rule_name, o.status])).toEqual([[receiver.id, "Experiment guard: loud", "firing"]]);
    expect(JSON.parse(outbox[0]!.body)).toMatchObject({ rule: { id: 0, kind: "experiment_guard" }, code: "sold_out", link: "https://faultline.example/experiments/loud?project=p" });
    const audit = await store.all<{ action: string; target: string; actor_label: string }>("SELECT action, target, actor_label FROM audit_log WHERE project_id = ?", [P]);
    expect(audit).toEqual([{ action: "experiment.stopped", target: "loud", actor_label: "faultline" }]);
    // A second tick finds nothing more to stop.
    expect(await stopTrippedExperiments(store, now + 1, "https://faultline.example")).toBe(0);
  });
});
