"use client";

import { useId, useState } from "react";
import type { AlertReceiver, AlertReceiverPatch } from "@/lib/contracts/alerts";
import { patchAlertReceiver } from "@/lib/query/alerts";
import styles from "./alerts.module.css";

const recipientsOf = (url: string) => url.replace(/^mailto:/, "").split(",").map(decodeURIComponent).join(", ");

/** Renames a receiver or points it elsewhere; a PagerDuty key left empty is kept (it is never shown back). */
export function ReceiverEditForm(props: { receiver: AlertReceiver; onDone(): Promise<unknown> }) {
  const r = props.receiver;
  const id = useId();
  const [name, setName] = useState(r.name);
  const [target, setTarget] = useState(r.format === "email" ? recipientsOf(r.url) : r.format === "pagerduty" ? "" : r.url);
  const [problem, setProblem] = useState<string | null>(null);
  const label = r.format === "pagerduty" ? "New integration key (empty: keep)" : r.format === "email" ? "Recipients (comma-separated)" : "Webhook URL";
  return (
    <form
      className={styles.form}
      aria-label={`Edit receiver ${r.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        const patch: AlertReceiverPatch = {};
        if (name.trim() !== r.name) patch.name = name.trim();
        if (r.format === "pagerduty") {
          if (target.trim() !== "") patch.routingKey = target.trim();
        } else if (r.format === "email") {
          const to = target.split(/[\s,;]+/).filter((a) => a !== "");
          if (to.join(", ") !== recipientsOf(r.url)) patch.to = to;
        } else if (target.trim() !== r.url) patch.url = target.trim();
        if (Object.keys(patch).length === 0) return void props.onDone();
        patchAlertReceiver(r.id, patch)
          .then(props.onDone)
          .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
      }}
    >
      <label htmlFor={`${id}-name`}>
        Receiver name
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label htmlFor={`${id}-target`}>
        {label}
        <input id={`${id}-target`} value={target} onChange={(e) => setTarget(e.target.value)} required={r.format !== "pagerduty"} />
      </label>
      {problem ? <p role="alert">{problem}</p> : null}
      <div className={styles.actions}>
        <button type="submit">Save receiver</button>
      </div>
    </form>
  );
}
