"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { projectIdSchema } from "@/lib/contracts/project-admin";
import { projectsQuery } from "@/lib/query/keys";
import { meQuery } from "@/lib/query/auth";
import { createProject } from "@/lib/query/settings";
import styles from "./settings.module.css";

/** A project id suggested from its name: lowercase words joined by hyphens. */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/, "");

/** Instance owners create a project: a name, and an id (suggested from the name) that URLs and keys use. */
export function NewProjectForm() {
  const qc = useQueryClient();
  const ids = useId();
  const [name, setName] = useState("");
  const [id, setId] = useState("");
  const [idEdited, setIdEdited] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const idCheck = id === "" ? null : projectIdSchema.safeParse(id);
  const idProblem = idCheck && !idCheck.success ? (idCheck.error.issues[0]?.message ?? "not a valid id") : null;
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const project = await createProject({ id, name: name.trim() });
      setCreated({ id: project.id, name: project.name });
      setName("");
      setId("");
      setIdEdited(false);
      await Promise.all([qc.invalidateQueries({ queryKey: projectsQuery().queryKey }), qc.invalidateQueries({ queryKey: meQuery().queryKey })]);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>New project</h2>
      <form className={styles.form} onSubmit={(e) => void submit(e)} aria-label="New project">
        <label>
          Name
          <input
            name="name"
            value={name}
            required
            maxLength={100}
            onChange={(e) => {
              setName(e.target.value);
              if (!idEdited) setId(slugOf(e.target.value));
            }}
          />
        </label>
        <label>
          Id
          <input
            name="id"
            value={id}
            required
            maxLength={64}
            className={styles.mono}
            aria-invalid={idProblem !== null}
            aria-describedby={`${ids}-id-hint`}
            onChange={(e) => {
              setId(e.target.value);
              setIdEdited(true);
            }}
          />
        </label>
        <button type="submit" className="btn" disabled={busy || name.trim() === "" || id === "" || idProblem !== null}>
          Create project
        </button>
      </form>
      <p id={`${ids}-id-hint`} className={styles.hint}>
        {idProblem ? `Id: ${idProblem}.` : "The id is in every link and CLI command (?project=…); it cannot change later. You become the project's owner."}
      </p>
      {problem && (
        <p role="alert" className={styles.problem}>
          Could not create the project: {problem}
        </p>
      )}
      <p role="status" className={styles.ok}>
        {created && (
          <>
            Created “{created.name}” ({created.id}). <Link href={`/settings/projects/${encodeURIComponent(created.id)}/keys`}>Create its first key</Link>
          </>
        )}
      </p>
    </section>
  );
}
