import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import styles from "@/components/auth/auth.module.css";
import { safeNextPath } from "@/lib/auth/next-path";
import { ssoErrorMessage } from "@/lib/auth/sso-errors";
import { accountsExist } from "@/server/auth/access";
import { pageCaller } from "@/server/auth/page-caller";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in · Faultline" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const next = safeNextPath(first(params.next));
  const ssoError = ssoErrorMessage(first(params.error));
  // Someone already signed in (or the admin secret, or setup mode) has nothing to do here.
  if (await pageCaller()) redirect(next);
  return (
    <section className={styles.card} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in to Faultline</h1>
      {(await accountsExist()) ? null : (
        <p className={styles.muted}>No account exists yet: open the one-time setup link the server printed at start (or print one with `npm run keys -- setup-link`).</p>
      )}
      {ssoError ? (
        <p role="alert" className={styles.problem}>
          {ssoError}
        </p>
      ) : null}
      <SignInForm next={next} />
    </section>
  );
}
