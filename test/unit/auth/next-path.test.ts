import { describe, expect, it } from "vitest";
import { safeNextPath, signInPath } from "@/lib/auth/next-path";

describe("?next= after signing in", () => {
  it.each([
    ["/tools", "/tools"],
    ["/runs/r%2F1?project=alpha&state=failed", "/runs/r%2F1?project=alpha&state=failed"],
    ["/codes/x#timeline", "/codes/x#timeline"],
    ["/settings/projects/alpha/members", "/settings/projects/alpha/members"],
    ["/invite/abc", "/invite/abc"],
  ])("keeps the same-site path %s", (raw, expected) => {
    expect(safeNextPath(raw)).toBe(expected);
  });

  it.each([
    ["an absolute URL", "https://evil.example/"],
    ["a scheme-relative URL", "//evil.example/x"],
    ["a backslash browsers read as //", "/\\evil.example"],
    ["a backslash later on", "/tools\\..\\x"],
    ["a javascript: URL", "javascript:alert(1)"],
    ["a relative path", "tools"],
    ["a tab inside //", "/\t/evil.example"],
    ["a newline", "/tools\nSet-Cookie: x"],
    ["the sign-in page itself", "/sign-in?next=/x"],
    ["the setup page", "/setup?token=abc"],
    ["an API path", "/api/v1/auth/me"],
    ["an API path reached through ..", "/x/../api/v1/auth/oidc/start"],
    ["an oversized path", `/${"a".repeat(2048)}`],
    ["nothing", ""],
    ["no value", null],
    ["a very long path", `/${"a".repeat(2001)}`],
  ])("refuses %s: /", (_why, raw) => {
    expect(safeNextPath(raw)).toBe("/");
  });

  it("builds the sign-in address that comes back", () => {
    expect(signInPath("/tools?window=24h")).toBe("/sign-in?next=%2Ftools%3Fwindow%3D24h");
    expect(signInPath("/")).toBe("/sign-in");
    expect(signInPath("//evil.example")).toBe("/sign-in");
  });
});
