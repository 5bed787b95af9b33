"use client";

import { useEffect, useRef, useState } from "react";
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
  return (
    <>
      {problem && (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      )}
      <table className="data" aria-label="Keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="text">
              Prefix
            </th>
            <th scope="col" className="text">
              Scope
            </th>
            <th scope="col" className="text">
              Created
            </th>
            <th scope="col" className="text">
              Last used
            </th>
            <th scope="col" className="text">
              State
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((k) => (
            <tr key={k.prefix} data-prefix={k.prefix}>
              <td className={k.revokedAt === null ? undefined : styles.revoked}>{k.name}</td>
              <td className={`text ${styles.mono}`}>{k.prefix}</td>
              <td className="text">{k.scope}</td>
              <td className="text">
                <RelativeTime at={k.createdAt} />
              </td>
              <td className="text" data-testid="last-used">
                {k.lastUsedAt === null ? "never" : <RelativeTime at={k.lastUsedAt} />}
              </td>
              <td className="text">
                {k.revokedAt !== null ? (
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
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="note">A revoked key is refused at once (401). The last use is recorded at most once a minute.</p>
    </>
  );
}
