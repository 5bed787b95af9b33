"use client";

import { useState } from "react";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/contracts/auth";
import { completeSetup } from "@/lib/query/auth";
import styles from "./auth.module.css";
import { NewAccountFields, type NewAccount } from "./new-account-fields";

/** Creates the instance owner from a setup link's token, then opens the dashboard signed in. */
export function SetupForm({ token }: { token: string }) {
  const [account, setAccount] = useState<NewAccount>({ email: "", name: "", password: "" });
  const [again, setAgain] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className={styles.form}
      aria-label="Create the owner account"
      onSubmit={(e) => {
        e.preventDefault();
        if (account.password !== again) {
          setProblem("the two passwords differ");
          return;
        }
        setBusy(true);
        completeSetup({ token, ...account })
          .then(() => window.location.assign("/"))
          .catch((error: unknown) => {
            setProblem(error instanceof Error ? error.message : String(error));
            setBusy(false);
          });
      }}
    >
      <NewAccountFields value={account} onChange={setAccount} />
      <label>
        Password again
        <input type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} required minLength={PASSWORD_MIN_LENGTH} maxLength={PASSWORD_MAX_LENGTH} />
      </label>
      {problem ? (
        <p role="alert" className={styles.problem}>
          {problem}
        </p>
      ) : null}
      <button type="submit" className={styles.primary} disabled={busy}>
        Create the owner account
      </button>
    </form>
  );
}
