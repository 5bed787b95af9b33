import * as client from "openid-client";
import type { OidcConfig } from "../../config";
import { processState } from "../../process-state";

/** The provider could not be reached, or its discovery document was unusable. */
export class ProviderUnavailableError extends Error {}

/** Seconds a request to the provider may take (discovery, token, UserInfo). */
const PROVIDER_TIMEOUT_S = 10;

const cache = processState("oidc", (): { client?: { key: string; configuration: Promise<client.Configuration> } } => ({}));

/**
 * The provider's configuration (endpoints, keys) from its discovery document. Fetched at the first
 * sign-in rather than at start, so a provider that is down does not stop the dashboard, and kept for
 * the life of the process; a failed discovery is not kept, so the next sign-in tries again.
 */
export function oidcClient(oidc: OidcConfig): Promise<client.Configuration> {
  const key = `${oidc.issuer}\n${oidc.clientId}`;
  if (cache.client?.key !== key) {
    const configuration = discover(oidc);
    cache.client = { key, configuration };
    configuration.catch(() => {
      if (cache.client?.configuration === configuration) cache.client = undefined;
    });
  }
  return cache.client!.configuration;
}

async function discover(oidc: OidcConfig): Promise<client.Configuration> {
  // server/config.ts allows plain HTTP only for an issuer on loopback (a local test provider).
  const insecure = new URL(oidc.issuer).protocol === "http:";
  let discovered: client.Configuration;
  try {
    discovered = await client.discovery(new URL(oidc.issuer), oidc.clientId, oidc.clientSecret, undefined, {
      execute: insecure ? [client.allowInsecureRequests] : [],
      timeout: PROVIDER_TIMEOUT_S,
    });
  } catch (error) {
    throw new ProviderUnavailableError(`discovery at ${oidc.issuer} failed: ${describeError(error)}`, { cause: error });
  }
  const metadata = discovered.serverMetadata();
  // Client authentication at the token endpoint: HTTP Basic is the standard's default and what
  // providers register clients with unless told otherwise; the form body only when Basic is not offered.
  const methods = metadata.token_endpoint_auth_methods_supported;
  const basic = !methods || methods.includes("client_secret_basic") || !methods.includes("client_secret_post");
  const configuration = new client.Configuration(metadata, oidc.clientId, oidc.clientSecret, basic ? client.ClientSecretBasic(oidc.clientSecret) : client.ClientSecretPost(oidc.clientSecret));
  configuration.timeout = PROVIDER_TIMEOUT_S;
  if (insecure) client.allowInsecureRequests(configuration);
  return configuration;
}

/** One line about a failed provider request, with its cause (never a token or a secret: they are not in these messages). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) parts.push(e.message);
  return parts.join(": ") || String(error);
}
