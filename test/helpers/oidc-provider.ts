import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { Server } from "node:http";
import Provider, { type Configuration } from "oidc-provider";
import { freePort } from "./server";

/** What the test provider says about one person (their `sub` is the login typed on its form). */
export interface TestAccount {
  email?: string;
  /** Anything: providers have sent strings here, and Faultline must only take the boolean `true`. */
  email_verified?: unknown;
  name?: string;
}

/**
 * A real OpenID Provider (panva's oidc-provider) on a port reserved on loopback, with one
 * confidential client. Its address is known before it listens, so a Faultline server can be started
 * against it first (discovery is lazy) and the client's redirect URI registered once that server's
 * address is known.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people it knows, by login; tests add to it while it runs. */
  accounts: Map<string, TestAccount>;
  /** Starts serving, with `redirectUri` as the client's only redirect URI. */
  listen(redirectUri: string): Promise<void>;
  /** Stops serving (if it did). */
  close(): Promise<void>;
}

/**
 * A provider with its development login and consent pages (any password; the login typed is the
 * subject) and the `email` and `profile` claims of `accounts`. By default, as most providers do, the
 * ID token carries only `sub` and UserInfo answers the rest; `claimsInIdToken` puts them in the ID
 * token too.
 */
export async function reserveOidcProvider(options: { claimsInIdToken?: boolean } = {}): Promise<TestOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "faultline-test";
  const clientSecret = randomBytes(24).toString("base64url");
  const accounts = new Map<string, TestAccount>();
  let server: Server | undefined;
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    async listen(redirectUri) {
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const configuration: Configuration = {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ["authorization_code"],
            response_types: ["code"],
            token_endpoint_auth_method: "client_secret_basic",
          },
        ],
        jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test-key", use: "sig", alg: "RS256" }] },
        cookies: { keys: [randomBytes(32).toString("hex")] },
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
        conformIdTokenClaims: !options.claimsInIdToken,
        pkce: { required: () => true },
        // Explicit lifetimes (seconds): the defaults work but print a notice for every artifact.
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
        findAccount: (_ctx, sub) => {
          const account = accounts.get(sub);
          return account ? { accountId: sub, claims: () => ({ sub, ...account }) } : undefined;
        },
      };
      const provider = new Provider(issuer, configuration);
      server = await new Promise<Server>((resolve, reject) => {
        const s = provider.listen(port, "127.0.0.1", () => resolve(s));
        s.once("error", reject);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
