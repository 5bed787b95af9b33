import * as client from "openid-client";
import type { OidcFlow } from "./flow-cookie";
import { describeError } from "./oidc-client";
import { SsoFailure } from "./sso-failure";

const NETWORK_CODES = new Set(["OAUTH_TIMEOUT", "OAUTH_ABORT", "ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_SOCKET"]);

/** True when the provider was not reached (or not in time), as opposed to answering something wrong. */
function unreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && e.message === "fetch failed") return true;
  }
  return false;
}

function failure(step: string, error: unknown): SsoFailure {
  if (unreachable(error)) return new SsoFailure("sso_unavailable", `${step}: the provider could not be reached: ${describeError(error)}`);
  if (error instanceof client.ResponseBodyError) {
    return new SsoFailure("sso_invalid_response", `${step}: ${error.error}${error.error_description ? ` (${error.error_description})` : ""}`);
  }
  return new SsoFailure("sso_invalid_response", `${step}: ${describeError(error)}`);
}

/**
 * Trades the authorization code for tokens (with the PKCE verifier), has openid-client validate the
 * response and the ID token (issuer, audience, expiry, nonce, state), and answers its claims. Email
 * claims missing from the ID token come from UserInfo, as providers may keep scope claims there (the
 * standard's default for the code flow); UserInfo must name the same subject.
 */
export async function exchangeCode(configuration: client.Configuration, flow: OidcFlow, callbackUrl: URL): Promise<Record<string, unknown>> {
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    throw failure("code exchange", error);
  }
  const idToken = tokens.claims();
  if (!idToken) throw new SsoFailure("sso_invalid_response", "code exchange: no ID token");
  const claims: Record<string, unknown> = { ...idToken };
  if (typeof claims.email === "string" && typeof claims.email_verified === "boolean") return claims;
  let info: client.UserInfoResponse;
  try {
    info = await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
  } catch (error) {
    throw failure("userinfo", error);
  }
  // The address and its verification come together from one source, never one from each.
  return { ...claims, email: info.email, email_verified: info.email_verified, name: claims.name ?? info.name, preferred_username: claims.preferred_username ?? info.preferred_username };
}
