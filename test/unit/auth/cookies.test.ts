import { describe, expect, it } from "vitest";
import { clearedSessionCookies, readCookie, sessionCookies } from "@/server/auth/cookies";

describe("session cookies", () => {
  it("are HttpOnly (the session) or readable (the CSRF token), SameSite=Lax, Path=/, for the session's lifetime", () => {
    expect(sessionCookies("tok", "csrf", new Request("http://127.0.0.1:3000/api/v1/auth/sign-in"), 7_200_500)).toEqual([
      "faultline_session=tok; Path=/; Max-Age=7200; SameSite=Lax; HttpOnly",
      "faultline_csrf=csrf; Path=/; Max-Age=7200; SameSite=Lax",
    ]);
  });

  it("are Secure when the browser came over HTTPS", () => {
    const [session, csrf] = sessionCookies("tok", "csrf", new Request("https://faultline.example/api/v1/auth/sign-in"), 60_000);
    expect(session).toBe("faultline_session=tok; Path=/; Max-Age=60; SameSite=Lax; HttpOnly; Secure");
    expect(csrf).toBe("faultline_csrf=csrf; Path=/; Max-Age=60; SameSite=Lax; Secure");
    // Without FAULTLINE_TRUST_PROXY a client's own X-Forwarded-Proto is not believed.
    const forged = new Request("http://127.0.0.1/", { headers: { "x-forwarded-proto": "https" } });
    expect(sessionCookies("t", "c", forged, 60_000).some((c) => c.includes("Secure"))).toBe(false);
  });

  it("are cleared with an empty value and Max-Age=0", () => {
    expect(clearedSessionCookies(new Request("http://127.0.0.1/"))).toEqual(["faultline_session=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly", "faultline_csrf=; Path=/; Max-Age=0; SameSite=Lax"]);
  });

  it("are read from the Cookie header by exact name", () => {
    const req = new Request("http://x/", { headers: { cookie: "other_faultline_session=no; faultline_session=abc=; faultline_csrf=" } });
    expect([readCookie(req, "faultline_session"), readCookie(req, "faultline_csrf"), readCookie(req, "missing")]).toEqual(["abc=", null, null]);
  });
});
