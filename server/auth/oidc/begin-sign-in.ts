import * as client from "openid-client";
import { FLOW_TTL_MS, type OidcFlow } from "./flow-cookie";

/** Scopes asked for: who (openid), their address (email) and their name for a new account (profile). */
const SCOPE = "openid email profile";

/**
 * A new authorization-code request with PKCE (S256), state and nonce, all fresh for this attempt:
 * the provider's address to send the browser to, and the flow its callback needs.
 */
export async function beginSignIn(configuration: client.Configuration, next: string, redirectUri: string, now: number): Promise<{ url: URL; flow: OidcFlow }> {
  const flow: OidcFlow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
    next,
    redirectUri,
    expiresAt: now + FLOW_TTL_MS,
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    response_type: "code",
    code_challenge: await client.calculatePKCECodeChallenge(flow.codeVerifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  return { url, flow };
}
