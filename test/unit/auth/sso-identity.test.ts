import { describe, expect, it } from "vitest";
import { ssoIdentityFromClaims } from "@/lib/auth/sso-identity";

describe("ssoIdentityFromClaims", () => {
  it("keeps the subject, the lowercased verified email and the provider's name", () => {
    expect(ssoIdentityFromClaims({ sub: "s-1", email: " Alice@Example.COM ", email_verified: true, name: "Alice Liddell" })).toEqual({
      ok: true,
      identity: { subject: "s-1", email: "alice@example.com", name: "Alice Liddell" },
    });
  });

  it.each([
    [{ preferred_username: "alice.l" }, "alice.l"],
    [{ given_name: "Alice", family_name: "Liddell" }, "Alice Liddell"],
    [{ name: "  \u0007 " }, "alice"],
    [{}, "alice"],
  ])("names a person without `name` from %j as %j", (claims, name) => {
    const result = ssoIdentityFromClaims({ sub: "s", email: "alice@example.com", email_verified: true, ...claims });
    expect(result.ok && result.identity.name).toBe(name);
  });

  it.each([
    [{}, null],
    [{ email: "" }, null],
    [{ email: "not-an-address" }, null],
    [{ email: 42 }, null],
    [{ email: `${"a".repeat(320)}@example.com` }, null],
  ])("refuses a missing or unusable email %j", (claims, email) => {
    expect(ssoIdentityFromClaims({ sub: "s", email_verified: true, ...claims })).toEqual({ ok: false, code: "sso_email_missing", email });
  });

  it.each([[false], ["true"], [1], [undefined], [null]])("refuses email_verified %j: only the boolean true counts", (verified) => {
    expect(ssoIdentityFromClaims({ sub: "s", email: "Bob@Example.com", email_verified: verified })).toEqual({ ok: false, code: "sso_email_unverified", email: "bob@example.com" });
  });
});
