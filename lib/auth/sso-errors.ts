/**
 * Why a single sign-on attempt ended on the sign-in page: the callback redirects to
 * `/sign-in?error=<code>` and the page shows the sentence. Only codes travel in the URL, so a crafted
 * link cannot put words of its own on the sign-in page.
 */
export const SSO_ERRORS = {
  sso_cancelled: "Sign-in was cancelled at the single sign-on provider.",
  sso_provider_error: "The single sign-on provider refused the sign-in. Try again, or ask your administrator.",
  sso_expired: "The single sign-on attempt expired or was started in another browser. Try again.",
  sso_state_mismatch: "The answer from the single sign-on provider does not belong to this sign-in attempt. Try again.",
  sso_invalid_response: "The answer from the single sign-on provider could not be verified. Try again, or ask your administrator.",
  sso_unavailable: "The single sign-on provider cannot be reached right now. Try again in a moment.",
  sso_email_missing: "The single sign-on provider did not share your email address, which Faultline needs to sign you in.",
  sso_email_unverified: "Your email address is not verified at the single sign-on provider. Verify it there, then try again.",
  sso_account_disabled: "This account is disabled. Ask your administrator.",
  sso_identity_conflict: "This email address already belongs to another account of the single sign-on provider. Ask your administrator.",
  sso_setup_pending: "Faultline is not set up yet: its owner must first create the owner account with the setup link printed at the first start.",
  sso_project_missing: "Single sign-on cannot create your account: its default project does not exist. Ask your administrator.",
} as const;

/** A single sign-on failure code (the `error` parameter of the sign-in page). */
export type SsoErrorCode = keyof typeof SSO_ERRORS;

/** The sentence for a sign-in page `error` parameter, or null for anything that is not one of ours. */
export function ssoErrorMessage(code: string | null | undefined): string | null {
  return typeof code === "string" && Object.hasOwn(SSO_ERRORS, code) ? SSO_ERRORS[code as SsoErrorCode] : null;
}
