"use client";

import { useEffect, useRef, useState } from "react";
import type { ProjectDetail } from "@/lib/contracts/project-admin";
import { patchProject } from "@/lib/query/settings";
import styles from "./settings.module.css";

/** Archive (or restore) the project, each after a confirmation that says what it does. */
export function ArchiveControl({ project, onChanged }: { project: ProjectDetail; onChanged: (updated: ProjectDetail) => Promise<void> }) {
  const archived = project.archivedAt !== null;
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // Focus follows the question: to the confirm button when asked, back to the start button after.
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (wasConfirming.current) startRef.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  const cancel = () => setConfirming(false);
  const apply = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await onChanged(await patchProject(project.id, { archived: !archived }));
      setConfirming(false);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  const verb = archived ? "Restore" : "Archive";
  return (
    <section className="panel" aria-labelledby="archive-title">
      <h2 id="archive-title">{archived ? "Restore" : "Archive"}</h2>
      <p className={styles.hint}>
        {archived
          ? "Restoring lets the project's ingest keys send data again and resumes its alert rules."
          : "Archiving keeps every run, chart and audit entry readable, but its keys can no longer send data (ingest answers 403) and its alert rules stop. You can restore it later."}
      </p>
      {!confirming ? (
        <button ref={startRef} type="button" className={`btn ${archived ? "" : styles.danger}`} onClick={() => setConfirming(true)}>
          {verb} project…
        </button>
      ) : (
        <div className={styles.confirm} role="group" aria-label={`Confirm: ${verb.toLowerCase()} ${project.name}`}>
          <p>
            {verb} “{project.name}” ({project.id})?
          </p>
          <div className={styles.actions}>
            <button ref={confirmRef} type="button" className={`btn ${archived ? "" : styles.danger}`} disabled={busy} onClick={() => void apply()}>
              {verb} project
            </button>
            <button type="button" className="btn" onClick={cancel}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {problem && (
        <p role="alert" className={styles.problem}>
          Could not {verb.toLowerCase()}: {problem}
        </p>
      )}
    </section>
  );
}
