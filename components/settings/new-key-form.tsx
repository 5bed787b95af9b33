"use client";

import { useState } from "react";
import { KEY_SCOPES, type KeyCreated, type KeyScopeName } from "@/lib/contracts/keys";
import { createProjectKey } from "@/lib/query/settings";
import styles from "./settings.module.css";

const SCOPE_LABELS: Record<KeyScopeName, string> = { ingest: "Ingest: sends data", read: "Read: CI release gate and code contract" };

/** Name a key and pick its scope; the answer (the clear key) goes to the caller to show once. */
export function NewKeyForm({ project, onCreated }: { project: string; onCreated: (key: KeyCreated) => Promise<void> }) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<KeyScopeName>("ingest");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const created = await createProjectKey(project, { name: name.trim(), scope });
      setName("");
      await onCreated(created);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="new-key-title">
      <h2 id="new-key-title">New key</h2>
      <form className={styles.form} onSubmit={(e) => void submit(e)} aria-label="New key">
        <label>
          Key name
          <input name="name" value={name} required maxLength={100} placeholder="support-agent prod" onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Scope
          <select name="scope" value={scope} onChange={(e) => setScope(e.target.value as KeyScopeName)}>
            {KEY_SCOPES.map((s) => (
              <option key={s} value={s}>
                {SCOPE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn" disabled={busy || name.trim() === ""}>
          Create key
        </button>
      </form>
      {problem && (
        <p role="alert" className={styles.problem}>
          Could not create the key: {problem}
        </p>
      )}
    </section>
  );
}
