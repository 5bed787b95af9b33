"use client";

import { useState } from "react";
import { PASSWORD_MIN_LENGTH } from "@/lib/contracts/auth";
import { completeSetup } from "@/lib/query/auth";
import styles from "./auth.module.css";

/** Creates the instance owner from a setup link's token, then opens the dashboard signed in. */
export function SetupForm({ token }: { token: string }) {
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className={styles.form}
      aria-label="Create the owner account"
      onSubmit={(e) => {
        e.preventDefault();
        if (password !== again) {
          setProblem("the two passwords differ");
          return;
        }
        setBusy(true);
        completeSetup({ token, email, name, password })
          .then(() => window.location.assign("/"))
          .catch((error: unknown) => {
            setProblem(error instanceof Error ? error.message : String(error));
            setBusy(false);
          });
      }}
    >
      <label>
        Email
        <input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required maxLength={254} />
      </label>
      <label>
        Name
        <input autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      </label>
      <label>
        Password (at least {PASSWORD_MIN_LENGTH} characters)
        <input type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} required minLength={PASSWORD_MIN_LENGTH} maxLength={200} />
      </label>
      <label>
        Password again
        <input type="password" autoComplete="new-password" value={again} onChange={(e) => setAgain(e.target.value)} required minLength={PASSWORD_MIN_LENGTH} maxLength={200} />
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
