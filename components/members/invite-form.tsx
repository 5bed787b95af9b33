"use client";

import { useState } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { PROJECT_ROLES, type ProjectRole } from "@/lib/auth/roles";
import { createInvitation } from "@/lib/query/members";
import styles from "./members.module.css";

/** Creates a one-time invitation link with a role; the link is shown once, with a copy button. */
export function InviteForm({ project, canInviteOwner, onCreated }: { project: string; canInviteOwner: boolean; onCreated(): Promise<unknown> }) {
  const [role, setRole] = useState<ProjectRole>("viewer");
  const [email, setEmail] = useState("");
  const [link, setLink] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const roles = PROJECT_ROLES.filter((r) => canInviteOwner || r !== "owner");
  return (
    <>
      <form
        className={styles.form}
        aria-label="New invitation"
        onSubmit={(e) => {
          e.preventDefault();
          createInvitation(project, { role, email: email.trim() === "" ? null : email.trim() })
            .then(async (created) => {
              setProblem(null);
              setLink(created.url);
              setEmail("");
              await onCreated();
            })
            .catch((error: unknown) => setProblem(error instanceof Error ? error.message : String(error)));
        }}
      >
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as ProjectRole)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label>
          Email (optional, for your records)
          <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} placeholder="someone@example.com" />
        </label>
        <button type="submit" className="btn">
          Create invitation link
        </button>
      </form>
      {problem ? (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      ) : null}
      {link ? (
        <div className={styles.link} role="status" aria-label="Invitation link">
          <span>Invitation link (shown once; it works once, for 7 days):</span>
          <code data-testid="invitation-link">{link}</code>
          <CopyButton text={link} label="Copy the invitation link">
            Copy link
          </CopyButton>
        </div>
      ) : null}
    </>
  );
}
