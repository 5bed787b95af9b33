"use client";

import { useId, useState } from "react";
import type { AlertReceiverFormat } from "@/lib/contracts/alert-enums";
import { createAlertReceiver } from "@/lib/query/alerts";
import styles from "./alerts.module.css";

const FORMAT_LABEL: Record<AlertReceiverFormat, string> = {
  json: "Webhook (generic JSON, signed)",
  slack: "Slack (incoming webhook)",
  pagerduty: "PagerDuty (Events API v2)",
  email: "Email",
};

/** The body for the API from what the form holds, per receiver kind. */
function receiverBody(project: string, name: string, format: AlertReceiverFormat, target: string) {
  const base = { project, name: name.trim(), format };
  if (format === "pagerduty") return { ...base, routingKey: target.trim() };
  if (format === "email") return { ...base, to: target.split(/[\s,;]+/).filter((a) => a !== "") };
  return { ...base, url: target.trim() };
}

/** Adds a receiver: a signed webhook (its secret shown this once), Slack, PagerDuty or email. */
export function ReceiverForm(props: { project: string; onCreated(): Promise<unknown> }) {
  const id = useId();
  const [name, setName] = useState("");
  const [target, setTarget] = useState("");
  const [format, setFormat] = useState<AlertReceiverFormat>("json");
  const [secret, setSecret] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const targetLabel = format === "pagerduty" ? "Integration (routing) key" : format === "email" ? "Recipients (comma-separated)" : "Webhook URL";
  return (
    <form
      className={styles.form}
      aria-label="New receiver"
      onSubmit={(e) => {
        e.preventDefault();
        createAlertReceiver(receiverBody(props.project, name, format, target))
          .then(async (created) => {
            setProblem(null);
            setSecret(created.secret);
            setName("");
            setTarget("");
            await props.onCreated();
          })
          .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
      }}
    >
      <label htmlFor={`${id}-name`}>
        Receiver name
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label htmlFor={`${id}-format`}>
        Kind
        <select id={`${id}-format`} value={format} onChange={(e) => setFormat(e.target.value as AlertReceiverFormat)}>
          {(Object.keys(FORMAT_LABEL) as AlertReceiverFormat[]).map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABEL[f]}
            </option>
          ))}
        </select>
      </label>
      <label htmlFor={`${id}-target`}>
        {targetLabel}
        <input id={`${id}-target`} value={target} onChange={(e) => setTarget(e.target.value)} required type={format === "json" || format === "slack" ? "url" : "text"} />
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
