"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { ChartFrame } from "@/components/charts/chart-states";
import { SloBudgetChart } from "@/components/charts/slo-budget-chart";
import { prepareSloBudget } from "@/lib/charts/slo-budget";
import { formatCount } from "@/lib/charts/format";
import { sloDetailOptions } from "@/lib/query/slos";
import { formatBurn, SLO_ALERTS } from "@/lib/slo/burn";
import { objectivePercent, percent, SLO_STATE_LABEL } from "./slo-labels";
import styles from "./slos.module.css";

const H = 220;

const withProject = (path: string, project: string) => (project === "default" ? path : `${path}${path.includes("?") ? "&" : "?"}project=${encodeURIComponent(project)}`);

/** One SLO: its budget left and burn rates, its budget hour by hour, and the failures that spent it. */
export function SloDetail({ project, id }: { project: string; id: number }) {
  const q = useQuery(sloDetailOptions(project, id));
  const d = q.data;
  const chart = d ? prepareSloBudget(d.budget) : null;
  const state = q.isPending ? "loading" : q.error ? "error" : chart?.empty ? "empty" : "ready";
  const s = d?.status;
  return (
    <section className={styles.panel} aria-labelledby="slo-detail-title">
      <h2 id="slo-detail-title" className={styles.subtitle}>
        {s ? `SLO ${s.slo.name}` : "SLO"}
      </h2>
      {q.error ? <p role="alert">Could not load this SLO: {q.error.message}</p> : null}
      {s ? (
        <>
          <p className={styles.muted}>
            {objectivePercent(s.slo.objective)} of calls of <span className={styles.mono}>{s.slo.tools.join(", ")}</span> end without a failure the agent could not recover from, over {s.slo.windowDays} days.
            Declines {s.slo.countDeclines ? "count" : "do not count"} as bad; failures the model recovered from {s.slo.countRecovered ? "count" : "do not count"}.
          </p>
          <dl className={styles.figures} aria-label="Budget">
            <div>
              <dt>Budget left</dt>
              <dd>{percent(s.budgetRemaining)}</dd>
            </div>
            <div>
              <dt>Good calls</dt>
              <dd>{s.sli === null ? "no calls" : percent(s.sli)}</dd>
            </div>
            <div>
              <dt>Calls</dt>
              <dd>{formatCount(s.window.calls)}</dd>
            </div>
            <div>
              <dt>Bad calls</dt>
              <dd>{formatCount(s.window.bad)}</dd>
            </div>
            <div>
              <dt>Declines left out</dt>
              <dd>{formatCount(s.window.declinesExcluded)}</dd>
            </div>
            <div>
              <dt>Recovered failures left out</dt>
              <dd>{formatCount(s.window.recoveredExcluded)}</dd>
            </div>
            <div>
              <dt>State</dt>
              <dd className={styles.state}>{SLO_STATE_LABEL[s.state]}</dd>
            </div>
          </dl>
          <table className={styles.table} aria-label="Burn rates">
            <thead>
              <tr>
                <th scope="col">Alert</th>
                <th scope="col">Long window</th>
                <th scope="col">Short window</th>
                <th scope="col">Threshold</th>
              </tr>
            </thead>
            <tbody>
              {(["page", "ticket"] as const).map((level) => {
                const a = SLO_ALERTS[level];
                return (
                  <tr key={level}>
                    <td>{level === "page" ? "Page (fast burn)" : "Ticket (slow burn)"}</td>
                    <td>
                      {formatBurn(s.burnRates[a.long.key])} over {a.long.label}
                    </td>
                    <td>
                      {formatBurn(s.burnRates[a.short.key])} over {a.short.label}
                    </td>
                    <td>{a.threshold}× on both</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      ) : null}
      <h3 className={styles.subtitle}>Budget over the window</h3>
      <ChartFrame label="Error budget left over the window" height={H} state={state} message={q.error ? q.error.message : "No calls of these tools in the window: nothing spent."}>
        {chart ? <SloBudgetChart data={chart} height={H} /> : null}
      </ChartFrame>
      {d ? (
        <div className={styles.lists}>
          <div>
            <h3>Codes that spent it</h3>
            {d.failures.codes.length === 0 ? (
              <p className={styles.muted}>No bad calls.</p>
            ) : (
              <ol>
                {d.failures.codes.map((c) => (
                  <li key={c.code}>
                    <Link href={withProject(`/codes/${encodeURIComponent(c.code)}`, project)}>{c.code}</Link> ({formatCount(c.count)})
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div>
            <h3>Tools</h3>
            {d.failures.tools.length === 0 ? (
              <p className={styles.muted}>No bad calls.</p>
            ) : (
              <ol>
                {d.failures.tools.map((t) => (
                  <li key={t.tool}>
                    <Link href={withProject(`/tools/${encodeURIComponent(t.tool)}`, project)}>{t.tool}</Link> ({formatCount(t.count)})
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div>
            <h3>Runs</h3>
            {d.failures.runs.length === 0 ? (
              <p className={styles.muted}>No bad calls.</p>
            ) : (
              <ol>
                {d.failures.runs.map((r) => (
                  <li key={r.runId}>
                    <Link href={withProject(`/runs/${encodeURIComponent(r.runId)}`, project)}>{r.runId}</Link> ({formatCount(r.count)})
                  </li>
                ))}
              </ol>
            )}
          </div>
        </div>
      ) : null}
    </section>
  );
}
