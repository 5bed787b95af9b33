import { recordEvent } from "@/db/audit/audited-change";
import { DEFAULT_NEXT, safeNextPath } from "@/lib/auth/next-path";
import { beginSignIn } from "../auth/oidc/begin-sign-in";
import { completeSignIn } from "../auth/oidc/complete-sign-in";
import { flowCookieHeader, flowCookieOf, openFlow, sealFlow } from "../auth/oidc/flow-cookie";
import { oidcClient } from "../auth/oidc/oidc-client";
import { callbackUri, isHttps, redirectWithCookies, signInPage } from "../auth/oidc/sign-in-urls";
import { SsoFailure } from "../auth/oidc/sso-failure";
import { startSession } from "../auth/session";
import { config, type OidcConfig } from "../config";
import { ApiError } from "../http/api-error";
import { requestAddress } from "../http/request-address";
import { route } from "../http/route";
import { getStore } from "../store";

function ssoConfig(): OidcConfig {
  const oidc = config().oidc;
  if (!oidc) throw new ApiError("not_found", "single sign-on is not configured on this Faultline (docs/sso.md)");
  return oidc;
}

/** `GET /api/v1/auth/oidc/start?next=/path`: off to the provider, with this attempt sealed in a cookie. */
export const oidcStart = route(async (req: Request) => {
  const oidc = ssoConfig();
  const next = safeNextPath(new URL(req.url).searchParams.get("next"));
  const configuration = await oidcClient(oidc).catch((error: unknown) => {
    console.warn(`[faultline] single sign-on unavailable: ${error instanceof Error ? error.message : String(error)}`);
    throw new ApiError("unavailable", `the single sign-on provider ${oidc.issuer} cannot be reached; try again later`, undefined, { "Retry-After": "30" });
  });
  const redirectUri = callbackUri(req, config().publicUrl);
  const { url, flow } = await beginSignIn(configuration, next, redirectUri, Date.now());
  return redirectWithCookies(url.href, [flowCookieHeader(sealFlow(flow, oidc.clientSecret), isHttps(redirectUri))], 302);
});

/**
 * `GET /api/v1/auth/oidc/callback`: the provider's answer. Signed in, the browser goes to the
 * attempt's `next`; refused, to the sign-in page with the reason's code. A request without a live
 * flow cookie was not started in this browser (or is over ten minutes old) and is not audited.
 */
export const oidcCallback = route(async (req: Request) => {
  const oidc = ssoConfig();
  const now = Date.now();
  const flow = openFlow(flowCookieOf(req), oidc.clientSecret, now);
  if (!flow) return redirectWithCookies(signInPage("sso_expired", DEFAULT_NEXT), [flowCookieHeader(null, false)]);
  const cleared = flowCookieHeader(null, isHttps(flow.redirectUri));
  const store = await getStore();
  const address = requestAddress(req);
  try {
    const user = await completeSignIn(store, oidc, flow, new URL(req.url), address, now);
    const cookies = await startSession(user.id, req, "oidc");
    await recordEvent(store, { actorUserId: user.id, actorLabel: user.email, address }, now, { projectId: null, action: "auth.sign_in", target: user.email, detail: { method: "oidc" } });
    return redirectWithCookies(flow.next, [cleared, ...cookies]);
  } catch (error) {
    if (!(error instanceof SsoFailure)) throw error;
    console.warn(`[faultline] single sign-on refused (${error.code}): ${error.detail}`);
    const reason = error.code.replace(/^sso_/, "");
    const actor = { actorUserId: error.who.userId, actorLabel: error.who.email ?? "anonymous", address };
    await recordEvent(store, actor, now, { projectId: null, action: "auth.sign_in_failed", target: error.who.email, detail: { method: "oidc", reason, message: error.detail } });
    return redirectWithCookies(signInPage(error.code, flow.next), [cleared]);
  }
});
