import type { UserRow } from "@/db/auth/users";
import type { Store } from "@/db/client";
import { ssoIdentityFromClaims } from "@/lib/auth/sso-identity";
import type { OidcConfig } from "../../config";
import { exchangeCode } from "./exchange-code";
import type { OidcFlow } from "./flow-cookie";
import { resolveSsoUser } from "./match-user";
import { oidcClient } from "./oidc-client";
import { SsoFailure } from "./sso-failure";

/** A provider's error code, kept only when it looks like one (it goes to the audit log). */
const errorCode = (value: string): string => (/^[\w.-]{1,64}$/.test(value) ? value : "unrecognised");

/**
 * The callback's work once its flow cookie opened: the provider's answer (an error, or a code for
 * this very attempt), the code exchange and ID token validation, the verified email, and the user
 * it signs in. Every refusal throws an `SsoFailure`.
 */
export async function completeSignIn(store: Store, oidc: OidcConfig, flow: OidcFlow, callback: URL, address: string | null, now: number): Promise<UserRow> {
  const error = callback.searchParams.get("error");
  if (error !== null) {
    const code = errorCode(error);
    throw new SsoFailure(code === "access_denied" ? "sso_cancelled" : "sso_provider_error", `the provider answered ${code}`);
  }
  if (callback.searchParams.get("state") !== flow.state) throw new SsoFailure("sso_state_mismatch", "the state parameter does not match this browser's sign-in attempt");
  const configuration = await oidcClient(oidc).catch((e: unknown) => {
    throw new SsoFailure("sso_unavailable", e instanceof Error ? e.message : String(e));
  });
  // The token request must name the redirect URI the authorization request named, whatever address
  // this request arrived on (a proxy's upstream, for one).
  const answered = new URL(flow.redirectUri);
  answered.search = callback.search;
  const checked = ssoIdentityFromClaims(await exchangeCode(configuration, flow, answered));
  if (!checked.ok) {
    const detail = checked.code === "sso_email_missing" ? "the provider shared no email address" : `the provider has not verified ${checked.email}`;
    throw new SsoFailure(checked.code, detail, { email: checked.email, userId: null });
  }
  const issuer = configuration.serverMetadata().issuer;
  const { user } = await resolveSsoUser(store, checked.identity, { issuer, defaultProject: oidc.defaultProject, defaultRole: oidc.defaultRole, now, address });
  return user;
}
