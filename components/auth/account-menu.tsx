"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { meQuery, signOut, signOutEverywhere } from "@/lib/query/me";
import styles from "./auth.module.css";

/** Who is signed in, with sign out (this browser) and sign out everywhere (every session of the account). */
export function AccountMenu() {
  const me = useQuery(meQuery());
  const [problem, setProblem] = useState<string | null>(null);
  if (!me.data || me.data.caller === "open") return null;
  const leave = (work: Promise<unknown>) =>
    work.then(
      () => window.location.assign("/sign-in"),
      (error: unknown) => setProblem(error instanceof Error ? error.message : String(error)),
    );
  const user = me.data.user;
  return (
    <section className={styles.account} aria-label="Account" data-testid="account-menu">
      {user ? (
        <>
          <div className={styles.who} title={user.email}>
            <strong>{user.name}</strong>
            <span>{user.email}</span>
            {user.instanceOwner ? <span className={styles.muted}>instance owner</span> : null}
          </div>
          <button type="button" onClick={() => void leave(signOut())}>
            Sign out
          </button>
          <button type="button" onClick={() => void leave(signOutEverywhere())}>
            Sign out everywhere
          </button>
        </>
      ) : (
        <div className={styles.who}>Signed in with the admin secret</div>
      )}
      {problem ? <p role="alert">{problem}</p> : null}
    </section>
  );
}
