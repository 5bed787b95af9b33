"use client";

import { useQuery } from "@tanstack/react-query";
import { safeNextPath } from "@/lib/auth/next-path";
import { authProvidersQuery } from "@/lib/query/auth-providers";
import styles from "./sso-button.module.css";

/**
 * "Sign in with <label>" when single sign-on is configured, nothing otherwise (nor while the answer
 * is on its way: a button that vanishes would be worse than one that appears). A plain link: the
 * start endpoint redirects the whole page to the provider.
 */
export function SsoButton({ next }: { next?: string | null }) {
  const providers = useQuery(authProvidersQuery());
  const oidc = providers.data?.oidc;
  if (!oidc) return null;
  const href = `/api/v1/auth/oidc/start?${new URLSearchParams({ next: safeNextPath(next) })}`;
  return (
    <a className={styles.sso} href={href} data-testid="sso-button">
      Sign in with {oidc.label}
    </a>
  );
}
