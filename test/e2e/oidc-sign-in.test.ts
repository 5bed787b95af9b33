import { createHash } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUser } from "@/db/auth/users";
import { connectBrowser } from "../helpers/browser";
import { reserveOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { startServer, type TestServer } from "../helpers/server";

let provider: TestOidcProvider;
let server: TestServer;
let browser: Browser;

// Its own server, configured against a provider of its own; the provider puts the email claims in
// the ID token here (the API test covers the UserInfo path).
beforeAll(async () => {
  provider = await reserveOidcProvider({ claimsInIdToken: true });
  [server, browser] = await Promise.all([
    startServer({
      env: { FAULTLINE_OIDC_ISSUER: provider.issuer, FAULTLINE_OIDC_CLIENT_ID: provider.clientId, FAULTLINE_OIDC_CLIENT_SECRET: provider.clientSecret, FAULTLINE_OIDC_LABEL: "Test IdP" },
      seed: async (store) => void (await createUser(store, { email: "owner@example.com", name: "Owner", passwordHash: null, instanceOwner: true, now: Date.now() })),
    }),
    connectBrowser(inject("browserWsEndpoint")),
  ]);
  await provider.listen(`${server.url}/api/v1/auth/oidc/callback`);
  provider.accounts.set("erin", { email: "erin@example.com", email_verified: true, name: "Erin Example" });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

describe("single sign-on in Chromium", () => {
  it("clicks the button on the sign-in page, signs in at the provider's own login page and lands on the dashboard with a session cookie", async () => {
    const context = await browser.newContext();
    const pageErrors: string[] = [];
    try {
      // Only the two local servers: the provider's page asks for a web font, which stays offline.
      await context.route(/^(?!http:\/\/127\.0\.0\.1:)/, (route) => route.abort());
      const page = await context.newPage();
      page.on("pageerror", (e) => pageErrors.push(e.message));
      await page.goto(`${server.url}/sign-in?next=%2F`);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      await page.getByRole("link", { name: "Sign in with Test IdP" }).click();
      await page.waitForURL((url) => url.origin === provider.issuer);
      await page.locator('input[name="login"]').fill("erin");
      await page.locator('input[name="password"]').fill("any password");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.waitForURL(`${server.url}/`);
      await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
      expect(await page.locator("nav").first().isVisible()).toBe(true);

      // Cookies are not kept apart by port: the provider's own (on 127.0.0.1 too) are in the jar as well.
      const cookies = Object.fromEntries((await context.cookies(server.url)).filter((c) => c.name.startsWith("faultline_")).map((c) => [c.name, c]));
      // The flow cookie is gone; the session's two are set.
      expect(Object.keys(cookies).sort()).toEqual(["faultline_csrf", "faultline_session"]);
      expect(cookies.faultline_session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
      expect(cookies.faultline_csrf).toMatchObject({ httpOnly: false, sameSite: "Lax", path: "/" });
      const user = await server.store.get<{ id: string; name: string }>("SELECT id, name FROM users WHERE email = 'erin@example.com'");
      expect(user?.name).toBe("Erin Example");
      const tokenHash = createHash("sha256").update(cookies.faultline_session!.value).digest("hex");
      expect(await server.store.all("SELECT user_id, method FROM sessions WHERE token_hash = ?", [tokenHash])).toEqual([{ user_id: user!.id, method: "oidc" }]);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
