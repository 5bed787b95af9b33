"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import type { AlertNotificationRow } from "@/lib/contracts/alerts";
import { alertHistoryOptions } from "@/lib/query/alerts";
import styles from "./alerts.module.css";

const time = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

function Attempts({ n }: { n: AlertNotificationRow }) {
  if (n.attempts.length === 0) return <span className={styles.muted}>{n.delivery === "unsent" ? "no receiver" : "not tried yet"}</span>;
  return (
    <ol className={styles.attempts}>
      {n.attempts.map((a) => (
        <li key={a.at}>
          {time(a.at)} UTC: {a.httpStatus !== null ? `HTTP ${a.httpStatus}` : a.error} ({a.durationMs} ms)
        </li>
      ))}
    </ol>
  );
}

/** Every notification of the project, newest first, with each delivery attempt and the receiver's status. */
export function HistoryView() {
  const project = useSearchParams().get("project") || "default";
  const { data, error, isPending } = useQuery({ ...alertHistoryOptions(project), refetchInterval: 5000 });
  return (
    <section className={styles.page} aria-labelledby="history-title">
      <h1 id="history-title" className={styles.title}>
        Alert history
      </h1>
      <div className={styles.panel}>
        {isPending ? (
          <p className={styles.muted}>Loading…</p>
        ) : error ? (
          <p role="alert">Could not load the history: {error.message}</p>
        ) : data.notifications.length === 0 ? (
          <p className={styles.muted}>No notification yet.</p>
        ) : (
          <table className={styles.table} aria-label="Notifications">
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Rule</th>
                <th scope="col">Status</th>
                <th scope="col">Tool / code</th>
                <th scope="col">Measured</th>
                <th scope="col">Receiver</th>
                <th scope="col">Delivery</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {data.notifications.map((n) => (
                <tr key={n.id}>
                  <td>{time(n.createdAt)}</td>
                  <td>{n.ruleName}</td>
                  <td>{n.status}</td>
                  <td>
                    <a href={n.link}>{n.code ? `${n.tool} / ${n.code}` : n.tool}</a>
                  </td>
                  <td>{n.value}</td>
                  <td>{n.receiver ?? "none"}</td>
                  <td>{n.delivery.replace("_", " ")}</td>
                  <td>
                    <Attempts n={n} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {data && data.page.total > data.notifications.length ? (
          <p className={styles.muted}>
            Newest {data.notifications.length} of {data.page.total} notifications.
          </p>
        ) : null}
      </div>
    </section>
  );
}
