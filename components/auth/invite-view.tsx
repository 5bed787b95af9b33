"use client";

import Link from "next/link";
import { useState } from "react";
import type { InvitationInfo } from "@/lib/contracts/auth";
import { acceptInvitation } from "@/lib/query/auth";
import styles from "./auth.module.css";
import { NewAccountFields, type NewAccount } from "./new-account-fields";

const projectHome = (project: string) => `/?project=${encodeURIComponent(project)}`;

/**
 * An invitation link: a signed-in user joins with one click; anyone else creates an account (the
 * email the admin typed is filled in) or signs in first and comes back.
 */
export function InviteView({ token, info, signedInAs }: { token: string; info: InvitationInfo; signedInAs: string | null }) {
  const [account, setAccount] = useState<NewAccount>({ email: info.email ?? "", name: "", password: "" });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const accept = (newAccount?: NewAccount) => {
    setBusy(true);
    acceptInvitation(token, newAccount)
      .then((accepted) => window.location.assign(projectHome(accepted.projectId)))
      .catch((error: unknown) => {
        setProblem(error instanceof Error ? error.message : String(error));
        setBusy(false);
      });
  };
  const problemLine = problem ? (
    <p role="alert" className={styles.problem}>
      {problem}
    </p>
  ) : null;
  if (signedInAs !== null) {
    return (
      <div className={styles.form}>
        <p className={styles.muted}>Signed in as {signedInAs}.</p>
        {problemLine}
        <button type="button" className={styles.primary} disabled={busy} onClick={() => accept()}>
          Join {info.projectName} as {info.role}
        </button>
      </div>
    );
  }
  return (
    <>
      <form
        className={styles.form}
        aria-label="Create your account"
        onSubmit={(e) => {
          e.preventDefault();
          accept(account);
        }}
      >
        <NewAccountFields value={account} onChange={setAccount} />
        {problemLine}
        <button type="submit" className={styles.primary} disabled={busy}>
          Create account and join
        </button>
      </form>
      <p className={styles.muted}>
        Already have an account? <Link href={`/sign-in?next=${encodeURIComponent(`/invite/${token}`)}`}>Sign in</Link>, then open this link again.
      </p>
    </>
  );
}
