import { SsoButton } from "./sso-button";

/** Other ways to sign in, below the password form: single sign-on when it is configured (docs/sso.md). */
export function SignInExtras({ next }: { next: string }) {
  return <SsoButton next={next} />;
}
