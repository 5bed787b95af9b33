"use client";

import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { DataTable, type Column } from "@/components/data-table";
import { ROLLING_WINDOW_NOTE } from "@/lib/alerts/describe";
import { formatUtcSecond } from "@/lib/charts/time-format";
import type { AlertNotificationRow } from "@/lib/contracts/alerts";
import { alertHistoryOptions } from "@/lib/query/alerts";
import styles from "./alerts.module.css";

function Attempts({ n }: { n: AlertNotificationRow }) {
  if (n.attempts.length === 0) return <span className={styles.muted}>{n.delivery === "unsent" ? "no receiver" : "not tried yet"}</span>;
  return (
    <ol className={styles.attempts}>
      {n.attempts.map((a) => (
        <li key={a.at}>
          {formatUtcSecond(a.at)} UTC: {a.httpStatus !== null ? `HTTP ${a.httpStatus}` : a.error} ({a.durationMs} ms)
        </li>
      ))}
    </ol>
  );
}

const COLUMNS: Column<AlertNotificationRow>[] = [
  { id: "when", header: "When (UTC)", cell: (n) => formatUtcSecond(n.createdAt) },
  { id: "rule", header: "Rule", cell: (n) => n.ruleName },
  { id: "status", header: "Status", cell: (n) => n.status },
  { id: "subject", header: "Tool / code", cell: (n) => <a href={n.link}>{n.code ? `${n.tool} / ${n.code}` : n.tool}</a> },
  { id: "measured", header: "Measured", title: ROLLING_WINDOW_NOTE, cell: (n) => n.value },
  { id: "issue", header: "Issue", cell: (n) => (n.issue ? <a href={n.issue.link}>issue {n.issue.state}</a> : <span className={styles.muted}>none</span>) },
  { id: "receiver", header: "Receiver", cell: (n) => n.receiver ?? "none" },
  { id: "delivery", header: "Delivery", cell: (n) => n.delivery.replace("_", " ") },
  { id: "attempts", header: "Attempts", cell: (n) => <Attempts n={n} /> },
];

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
          <DataTable className={styles.table} align={{}} columns={COLUMNS} rows={data.notifications} rowKey={(n) => String(n.id)} ariaLabel="Notifications" />
        )}
        {data && data.notifications.length > 0 ? (
          <p className={styles.muted} data-testid="window-note">
            {ROLLING_WINDOW_NOTE}
          </p>
        ) : null}
        {data && data.page.total > data.notifications.length ? (
          <p className={styles.muted}>
            Newest {data.notifications.length} of {data.page.total} notifications.
          </p>
        ) : null}
      </div>
    </section>
  );
}
