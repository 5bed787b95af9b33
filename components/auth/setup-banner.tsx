"use client";

import { useQuery } from "@tanstack/react-query";
import { meQuery } from "@/lib/query/me";
import styles from "./auth.module.css";

/** Setup mode (no account yet): says the dashboard is open to anyone who reaches it, and how to create the owner. */
export function SetupBanner() {
  const me = useQuery(meQuery());
  if (!me.data?.setupMode) return null;
  return (
    <div className={styles.banner} data-testid="setup-banner">
      <strong>No owner account yet.</strong> {me.data.caller === "open" ? "Anyone who can reach this dashboard may use it. " : ""}
      Create the owner account with the one-time setup link the server printed at start, or print a new one with{" "}
      <code>npm run keys -- setup-link</code>.
    </div>
  );
}
