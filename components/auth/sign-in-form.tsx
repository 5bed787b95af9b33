"use client";

import { useState } from "react";
import { signIn } from "@/lib/query/auth";
import styles from "./auth.module.css";
import { SignInExtras } from "./sign-in-extras";

/** Email and password; on success the browser opens `next` (a same-site path, checked by the page). */
export function SignInForm({ next }: { next: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <form
        className={styles.form}
        aria-label="Sign in"
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          signIn({ email, password })
            // A full load: the shell, the caller and every cached query start over as this user.
            .then(() => window.location.assign(next))
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
          Password
          <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required maxLength={200} />
        </label>
        {problem ? (
          <p role="alert" className={styles.problem}>
            {problem}
          </p>
        ) : null}
        <button type="submit" className={styles.primary} disabled={busy}>
          Sign in
        </button>
      </form>
      <div className={styles.extras}>
        <SignInExtras next={next} />
      </div>
    </>
  );
}
