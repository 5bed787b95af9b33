import { describe, expect, it } from "vitest";
import { FLOW_COOKIE, FLOW_TTL_MS, flowCookieHeader, flowCookieOf, openFlow, sealFlow, type OidcFlow } from "@/server/auth/oidc/flow-cookie";

const NOW = Date.UTC(2026, 4, 1, 12);
const SECRET = "client-secret-of-the-test";
const flow: OidcFlow = { state: "st", nonce: "no", codeVerifier: "ve", next: "/runs?project=a", redirectUri: "https://fl.example/api/v1/auth/oidc/callback", expiresAt: NOW + FLOW_TTL_MS };

describe("the sealed flow cookie", () => {
  it("opens what it sealed until it expires", () => {
    const sealed = sealFlow(flow, SECRET);
    expect(openFlow(sealed, SECRET, NOW)).toEqual(flow);
    expect(openFlow(sealed, SECRET, NOW + FLOW_TTL_MS - 1)).toEqual(flow);
    expect(openFlow(sealed, SECRET, NOW + FLOW_TTL_MS)).toBeNull();
  });

  it("hides its content from the browser", () => {
    const text = Buffer.from(sealFlow(flow, SECRET), "base64url").toString("latin1");
    expect(text).not.toContain("/runs");
    expect(text).not.toContain("codeVerifier");
  });

  it("refuses a changed byte, another secret, garbage and nothing", () => {
    const sealed = Buffer.from(sealFlow(flow, SECRET), "base64url");
    for (const at of [0, 12, 30, sealed.length - 1]) {
      const changed = Buffer.from(sealed);
      changed[at] = changed[at]! ^ 1;
      expect(openFlow(changed.toString("base64url"), SECRET, NOW)).toBeNull();
    }
    expect(openFlow(sealed.toString("base64url"), "another-secret", NOW)).toBeNull();
    expect(openFlow("not a cookie", SECRET, NOW)).toBeNull();
    expect(openFlow("", SECRET, NOW)).toBeNull();
    expect(openFlow(null, SECRET, NOW)).toBeNull();
  });

  it("is read from the Cookie header among others", () => {
    const req = new Request("http://x/", { headers: { cookie: `a=1; ${FLOW_COOKIE}=abc_-; faultline_session=z` } });
    expect(flowCookieOf(req)).toBe("abc_-");
    expect(flowCookieOf(new Request("http://x/", { headers: { cookie: "faultline_oidcx=1" } }))).toBeNull();
    expect(flowCookieOf(new Request("http://x/"))).toBeNull();
  });

  it("is set HttpOnly and Lax on the sign-in endpoints only, Secure over HTTPS, and deleted with Max-Age=0", () => {
    expect(flowCookieHeader("v", true)).toBe("faultline_oidc=v; Path=/api/v1/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=600; Secure");
    expect(flowCookieHeader("v", false)).toBe("faultline_oidc=v; Path=/api/v1/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=600");
    expect(flowCookieHeader(null, false)).toBe("faultline_oidc=; Path=/api/v1/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=0");
  });
});
