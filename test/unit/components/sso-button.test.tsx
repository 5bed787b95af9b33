import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SsoButton } from "@/components/auth/sso-button";
import type { AuthProviders } from "@/lib/contracts/auth-providers";
import { authProvidersKey } from "@/lib/query/auth-providers";

/** Renders the button with the providers answer already in the cache (as a page's prefetch leaves it). */
function render(providers: AuthProviders | undefined, next?: string | null): string {
  const qc = new QueryClient();
  if (providers) qc.setQueryData(authProvidersKey(), providers);
  return renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <SsoButton next={next} />
    </QueryClientProvider>,
  );
}

describe("SsoButton", () => {
  it("links to the start of single sign-on with the sanitised next page", () => {
    const html = render({ password: true, oidc: { label: "Okta" } }, "/runs?project=a");
    expect(html).toMatch(/^<a class="[^"]*" href="\/api\/v1\/auth\/oidc\/start\?next=%2Fruns%3Fproject%3Da" data-testid="sso-button">Sign in with Okta<\/a>$/);
    expect(render({ password: true, oidc: { label: "Okta" } }, "https://evil.example")).toContain('href="/api/v1/auth/oidc/start?next=%2F"');
    expect(render({ password: true, oidc: { label: "Okta" } })).toContain('href="/api/v1/auth/oidc/start?next=%2F"');
  });

  it("renders nothing without single sign-on, or before the answer is there", () => {
    expect(render({ password: true, oidc: null })).toBe("");
    expect(render(undefined)).toBe("");
  });
});
