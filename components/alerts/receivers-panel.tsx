"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AlertReceiverTestAnswer } from "@/lib/contracts/alerts";
import { alertReceiversOptions, alertRulesOptions, deleteAlertReceiver, testAlertReceiver } from "@/lib/query/alerts";
import styles from "./alerts.module.css";
import { ReceiverEditForm } from "./receiver-edit-form";
import { ReceiverForm } from "./receiver-form";

const testText = (t: AlertReceiverTestAnswer) =>
  t.delivered
    ? `Test delivered${t.httpStatus === null ? "" : ` (${t.httpStatus})`} in ${Math.round(t.durationMs)} ms.`
    : `Test not delivered: ${t.error ?? `the receiver answered ${t.httpStatus ?? "nothing"}`}.`;

/** The project's receivers: each with "Send a test" and delete (admins), and the form to add one. */
export function ReceiversPanel(props: { project: string; canEdit: boolean }) {
  const qc = useQueryClient();
  const receivers = useQuery(alertReceiversOptions(props.project));
  const [results, setResults] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: alertReceiversOptions(props.project).queryKey }), qc.invalidateQueries({ queryKey: alertRulesOptions(props.project).queryKey })]);
  const list = receivers.data?.receivers ?? [];
  return (
    <section className={styles.panel} aria-labelledby="receivers-title">
      <h2 id="receivers-title" className={styles.subtitle}>
        Receivers
      </h2>
      {problem ? <p role="alert">{problem}</p> : null}
      {list.length > 0 ? (
        <ul aria-label="Receivers" className={styles.receivers}>
          {list.map((r) => (
            <li key={r.id}>
              <span>
                <strong>{r.name}</strong> · {r.format} · <span className={styles.mono}>{r.url}</span>
              </span>
              {props.canEdit ? (
                <span className={styles.actions}>
                  <button
                    type="button"
                    disabled={busy === r.id}
                    onClick={() => {
                      setBusy(r.id);
                      testAlertReceiver(r.id)
                        .then((t) => setResults((all) => ({ ...all, [r.id]: testText(t) })))
                        .catch((error: unknown) => setResults((all) => ({ ...all, [r.id]: `Test failed: ${error instanceof Error ? error.message : String(error)}` })))
                        .finally(() => setBusy(null));
                    }}
                  >
                    Send a test to {r.name}
                  </button>
                  <button type="button" onClick={() => setEditing(editing === r.id ? null : r.id)}>
                    {editing === r.id ? `Cancel edit of ${r.name}` : `Edit ${r.name}`}
                  </button>
                  {deleting === r.id ? (
                    <button
                      type="button"
                      onClick={() => {
                        deleteAlertReceiver(r.id)
                          .then(() => setProblem(null))
                          .then(refresh)
                          .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)))
                          .finally(() => setDeleting(null));
                      }}
                    >
                      Confirm delete of {r.name}
                    </button>
                  ) : (
                    <button type="button" onClick={() => setDeleting(r.id)}>
                      Delete {r.name}
                    </button>
                  )}
                </span>
              ) : null}
              {editing === r.id ? (
                <ReceiverEditForm
                  receiver={r}
                  onDone={async () => {
                    setEditing(null);
                    await refresh();
                  }}
                />
              ) : null}
              {results[r.id] ? (
                <span role="status" className={styles.muted}>
                  {results[r.id]}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>No receiver yet: notifications are kept in the history only.</p>
      )}
      {props.canEdit ? <ReceiverForm project={props.project} onCreated={refresh} /> : null}
    </section>
  );
}
