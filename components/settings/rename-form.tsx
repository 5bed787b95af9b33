"use client";

import { useState } from "react";
import type { ProjectDetail } from "@/lib/contracts/project-admin";
import { patchProject } from "@/lib/query/settings";
import styles from "./settings.module.css";

/** The owner renames the project; its id (in links and keys) stays. */
export function RenameForm({ project, onRenamed }: { project: ProjectDetail; onRenamed: (updated: ProjectDetail) => Promise<void> }) {
  const [name, setName] = useState(project.name);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await onRenamed(await patchProject(project.id, { name: name.trim() }));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="rename-title">
      <h2 id="rename-title">Name</h2>
      <form className={styles.form} onSubmit={(e) => void submit(e)} aria-label="Rename project">
        <label>
          Project name
          <input name="name" value={name} required maxLength={100} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="btn" disabled={busy || name.trim() === "" || name.trim() === project.name}>
          Rename
        </button>
      </form>
      <p className={styles.hint}>The id {project.id} stays: links, keys and CLI commands keep working.</p>
      {problem && (
        <p role="alert" className={styles.problem}>
          Could not rename: {problem}
        </p>
      )}
    </section>
  );
}
