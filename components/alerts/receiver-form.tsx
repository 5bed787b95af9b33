"use client";

import { useState } from "react";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";
import { createAlertReceiver } from "@/lib/query/alerts";
import styles from "./alerts.module.css";

/** Adds a webhook receiver; its signing secret is shown this once (docs/alerts.md explains the signature). */
export function ReceiverForm(props: { project: string; onCreated(): Promise<unknown> }) {
  const [name, setName] = useState("");
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<AlertReceiverFormat>("json");
  const [secret, setSecret] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className={styles.form}
      aria-label="New receiver"
      onSubmit={(e) => {
        e.preventDefault();
        createAlertReceiver({ project: props.project, name: name.trim(), url: url.trim(), format })
          .then(async (created) => {
            setProblem(null);
            setSecret(created.secret);
            setName("");
            setUrl("");
            await props.onCreated();
          })
          .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
      }}
    >
      <label>
        Receiver name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label>
        Webhook URL
        <input value={url} onChange={(e) => setUrl(e.target.value)} required type="url" />
      </label>
      <label>
        Body
        <select value={format} onChange={(e) => setFormat(e.target.value as AlertReceiverFormat)}>
          <option value="json">generic JSON</option>
          <option value="slack">Slack (text + blocks)</option>
        </select>
      </label>
      {problem ? <p role="alert">{problem}</p> : null}
      {secret ? (
        <p role="status">
          Signing secret (shown once): <span className={styles.mono}>{secret}</span>
        </p>
      ) : null}
      <div className={styles.actions}>
        <button type="submit">Add receiver</button>
      </div>
    </form>
  );
}
