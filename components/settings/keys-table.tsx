"use client";

import { useEffect, useRef, useState } from "react";
import { DataTable, type Column } from "@/components/data-table";
import type { KeyRow } from "@/lib/contracts/keys";
import { revokeProjectKey } from "@/lib/query/settings";
import { RelativeTime } from "./relative-time";
import styles from "./settings.module.css";

/** The project's keys, newest first; an active key can be revoked after a confirmation. */
export function KeysTable({ project, keys, onRevoked }: { project: string; keys: KeyRow[]; onRevoked: () => Promise<unknown> }) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  const revoke = async (prefix: string) => {
    setBusy(true);
    setProblem(null);
    try {
      await revokeProjectKey(project, prefix);
    } catch (error) {
      setProblem(`Could not revoke ${prefix}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
      setConfirming(null);
      await onRevoked();
    }
  };
  const rows = [...keys].reverse();
  const columns: Column<KeyRow>[] = [
    { id: "name", header: "Name", cellClassName: (k) => (k.revokedAt === null ? undefined : styles.revoked), cell: (k) => k.name },
    { id: "prefix", header: "Prefix", align: "text", cellClassName: `text ${styles.mono}`, cell: (k) => k.prefix },
    { id: "scope", header: "Scope", align: "text", cell: (k) => k.scope },
    { id: "created", header: "Created", align: "text", cell: (k) => <RelativeTime at={k.createdAt} /> },
    {
      id: "lastUsed",
      header: "Last used",
      align: "text",
      cellAttributes: () => ({ "data-testid": "last-used" }),
      cell: (k) => (k.lastUsedAt === null ? "never" : <RelativeTime at={k.lastUsedAt} />),
    },
    {
      id: "state",
      header: "State",
      align: "text",
      cell: (k) =>
        k.revokedAt !== null ? (
          <>
            revoked <RelativeTime at={k.revokedAt} />
          </>
        ) : confirming === k.prefix ? (
          <span className={styles.actions} role="group" aria-label={`Confirm: revoke ${k.prefix}`}>
            <button ref={confirmRef} type="button" className={`btn ${styles.danger}`} disabled={busy} onClick={() => void revoke(k.prefix)}>
              Revoke {k.prefix} now
            </button>
            <button type="button" className="btn" onClick={() => setConfirming(null)}>
              Cancel
            </button>
          </span>
        ) : (
          <span className={styles.actions}>
            active
            <button type="button" className="btn" aria-label={`Revoke ${k.name} (${k.prefix})`} onClick={() => setConfirming(k.prefix)}>
              Revoke…
            </button>
          </span>
        ),
    },
  ];
  return (
    <>
      {problem && (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      )}
      <DataTable columns={columns} rows={rows} rowKey={(k) => k.prefix} rowAttributes={(k) => ({ "data-prefix": k.prefix })} ariaLabel="Keys" />
      <p className="note">A revoked key is refused at once (401). The last use is recorded at most once a minute.</p>
    </>
  );
}
