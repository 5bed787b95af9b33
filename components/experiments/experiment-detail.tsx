"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { experimentRows } from "@/lib/charts/experiment-rows";
import type { ExperimentTransition } from "@/lib/contracts/experiments";
import { experimentDetailOptions, transitionExperiment } from "@/lib/query/experiments";
import styles from "../alerts/alerts.module.css";

const STATE_LABEL = { draft: "draft", running: "running", stopped_winner: "stopped with a winner", stopped_inconclusive: "stopped, inconclusive" } as const;

/** One experiment: per-variant exposures, decided errors, rates with always-valid intervals, the verdict, and the admin's actions. */
export function ExperimentDetail({ project, id }: { project: string; id: string }) {
  const qc = useQueryClient();
  const { data: d, error } = useQuery({ ...experimentDetailOptions(project, id), refetchInterval: 3000 });
  const act = useMutation({
    mutationFn: (t: ExperimentTransition) => transitionExperiment(project, id, t),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["experiments"] });
      await qc.invalidateQueries({ queryKey: ["experiment-detail"] });
    },
  });
  if (error) return <p role="alert">{error.message}</p>;
  if (!d) return <p className="note">Loading…</p>;
  const e = d.experiment;
  const rows = experimentRows(d);
  const open = e.state === "running" || e.state === "stopped_inconclusive";
  return (
    <section className={styles.panel} aria-labelledby="experiment-title" data-testid="experiment-detail" data-state={e.state}>
      <h2 id="experiment-title" className={styles.subtitle}>
        {e.id} <span className={styles.muted}>on {e.code}{e.tool ? ` of ${e.tool}` : ""}: {STATE_LABEL[e.state]}</span>
      </h2>
      <p data-testid="experiment-verdict" data-kind={d.verdict.kind}>
        <strong>Verdict:</strong> {d.verdict.message}
        {e.stopReason ? <span className={styles.muted}> · {e.stopReason}</span> : null}
      </p>
      <p className={styles.muted}>
        Intervals are always-valid {Math.round((1 - d.alpha) * 100)}% intervals (mSPRT): they stay valid however often this page is read.
      </p>
      <table className={styles.table} data-testid="experiment-variants">
        <caption className={styles.muted}>Per wording, counted from the stored records</caption>
        <thead>
          <tr>
            <th scope="col">wording</th>
            <th scope="col">share</th>
            <th scope="col">exposures</th>
            <th scope="col">decided</th>
            <th scope="col">self-correction</th>
            <th scope="col">vs control</th>
            <th scope="col">repeated</th>
            <th scope="col">run failed</th>
            <th scope="col">calls until recovery</th>
            <th scope="col">
              <span className="sr-only">actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-variant={r.id}>
              <th scope="row">
                <span className={styles.mono}>{r.id}</span>
                {r.winner ? " (promoted)" : r.verdict === "winner" ? " (better)" : ""}
                <div>{r.text}</div>
              </th>
              <td>{r.weight}%</td>
              <td data-testid="exposures">{r.exposures}</td>
              <td data-testid="decided">{r.decided}</td>
              <td data-testid="self-correction">{r.selfCorrection}</td>
              <td>{r.difference}</td>
              <td>{r.repeatRate}</td>
              <td>{r.runFailedRate}</td>
              <td>{r.callsUntilRecovery}</td>
              <td>
                {open ? (
                  <button type="button" disabled={act.isPending} onClick={() => act.mutate({ action: "promote", variant: r.id })} aria-label={`Promote ${r.id}`}>
                    Promote
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.actions}>
        {e.state === "draft" ? (
          <button type="button" disabled={act.isPending} onClick={() => act.mutate({ action: "start" })}>
            Start
          </button>
        ) : null}
        {e.state === "running" ? (
          <button type="button" disabled={act.isPending} onClick={() => act.mutate({ action: "stop" })}>
            Stop without a winner
          </button>
        ) : null}
      </div>
      {act.error ? <p role="alert">{act.error.message}</p> : null}
    </section>
  );
}
