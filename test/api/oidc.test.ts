import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUser } from "@/db/auth/users";
import { reserveOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { freePort, startServer, type TestServer } from "../helpers/server";

const CALLBACK = "/api/v1/auth/oidc/callback";
const PASSWORD_HASH = "scrypt$16384$8$1$c2FsdA$aGFzaA";

/** Cookies per origin, as a browser keeps them (paths are ignored: the names used here are unique). */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const cookies = this.jar.get(target.origin) ?? new Map<string, string>();
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set("cookie", [...cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(target, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const name = pair.slice(0, pair.indexOf("=")).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) < Date.now()));
      if (gone) cookies.delete(name);
      else cookies.set(name, pair.slice(pair.indexOf("=") + 1).trim());
    }
    this.jar.set(target.origin, cookies);
    return res;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }
}

/** The `name=value` part of each Set-Cookie of a response, by name, with its attributes. */
function setCookies(res: Response): Record<string, string> {
  return Object.fromEntries(res.headers.getSetCookie().map((line) => [line.slice(0, line.indexOf("=")), line]));
}

/**
 * Drives the provider's own login and consent pages by HTTP, from Faultline's start endpoint until
 * the provider redirects back to the callback (not followed: the test decides how to call it).
 * `abort` presses the provider's Cancel link instead of signing in.
 */
async function throughProvider(server: TestServer, browser: Browser, login: string, options: { next?: string; abort?: boolean } = {}): Promise<URL> {
  const query = options.next === undefined ? "" : `?next=${encodeURIComponent(options.next)}`;
  let res = await browser.fetch(`${server.url}/api/v1/auth/oidc/start${query}`);
  let at = new URL(`${server.url}/api/v1/auth/oidc/start`);
  for (let step = 0; step < 20; step++) {
    if (res.status >= 300 && res.status < 400) {
      const location = new URL(res.headers.get("location")!, at);
      if (location.href.startsWith(server.url + CALLBACK)) return location;
      at = location;
      res = await browser.fetch(at);
      continue;
    }
    expect(res.status, `${at.href}: ${await res.clone().text()}`).toBe(200);
    const html = await res.text();
    const action = new URL(html.match(/<form[^>]*action="([^"]+)"/)![1]!, at);
    const prompt = html.match(/name="prompt" value="(\w+)"/)![1];
    if (options.abort) {
      at = new URL(`${at.pathname}/abort`, at);
      res = await browser.fetch(at);
      continue;
    }
    const body = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt: prompt! });
    res = await browser.fetch(action, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });
    at = action;
  }
  throw new Error("the provider never redirected back");
}

const sha256 = (v: string) => createHash("sha256").update(v).digest("hex");

let provider: TestOidcProvider;
let server: TestServer;
let ownerId: string;
let patId: string;

beforeAll(async () => {
  provider = await reserveOidcProvider();
  server = await startServer({
    dialect: inject("serverDialect"),
    env: {
      FAULTLINE_OIDC_ISSUER: provider.issuer,
      FAULTLINE_OIDC_CLIENT_ID: provider.clientId,
      FAULTLINE_OIDC_CLIENT_SECRET: provider.clientSecret,
      FAULTLINE_OIDC_LABEL: "Test IdP",
    },
    async seed(store) {
      ownerId = (await createUser(store, { email: "owner@example.com", name: "Owner", passwordHash: PASSWORD_HASH, instanceOwner: true, now: Date.now() })).id;
      patId = (await createUser(store, { email: "pat@example.com", name: "Pat", passwordHash: PASSWORD_HASH, instanceOwner: false, now: Date.now() })).id;
    },
  });
  await provider.listen(server.url + CALLBACK);
  provider.accounts.set("nora", { email: "Nora@Example.com", email_verified: true, name: "Nora New" });
  provider.accounts.set("rex", { email: "rex@example.com", email_verified: true, name: "Rex" });
  provider.accounts.set("pat", { email: "PAT@example.com", email_verified: true, name: "Pat at the IdP" });
  provider.accounts.set("mallory", { email: "owner@example.com", email_verified: false, name: "Mallory" });
  provider.accounts.set("ghost", { name: "No Email" });
  provider.accounts.set("dora", { email: "dora@example.com", email_verified: true });
  provider.accounts.set("nina", { email: "nina@example.com", email_verified: true });
  provider.accounts.set("sam", { email: "sam@example.com", email_verified: true });
  provider.accounts.set("cleo", { email: "cleo@example.com", email_verified: true });
});

afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

const userByEmail = (email: string) =>
  server.store.get<{ id: string; name: string; password_hash: string | null; instance_owner: number }>("SELECT id, name, password_hash, instance_owner FROM users WHERE email = ?", [email]);
const auditOf = (target: string) =>
  server.store.all<{ project_id: string | null; actor_user_id: string | null; actor_label: string; action: string; target: string | null; detail: string | null; address: string | null }>(
    "SELECT project_id, actor_user_id, actor_label, action, target, detail, address FROM audit_log WHERE target = ? ORDER BY id",
    [target],
  );
const sessionsOf = (userId: string) => server.store.all<{ token_hash: string; method: string }>("SELECT token_hash, method FROM sessions WHERE user_id = ? ORDER BY created_at", [userId]);

describe("single sign-on against a real OpenID Provider", () => {
  it("offers the method on /api/v1/auth/providers", async () => {
    const res = await fetch(`${server.url}/api/v1/auth/providers`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ password: true, oidc: { label: "Test IdP" } });
  });

  it("starts an authorization-code request with PKCE, state and nonce, sealed in an HttpOnly cookie", async () => {
    const res = await fetch(`${server.url}/api/v1/auth/oidc/start?next=/runs`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(`${provider.issuer}/auth`);
    const q = Object.fromEntries(location.searchParams);
    expect(Object.keys(q).sort()).toEqual(["client_id", "code_challenge", "code_challenge_method", "nonce", "redirect_uri", "response_type", "scope", "state"]);
    expect(q).toMatchObject({ client_id: provider.clientId, redirect_uri: server.url + CALLBACK, response_type: "code", scope: "openid email profile", code_challenge_method: "S256" });
    expect(q.code_challenge).toMatch(/^[\w-]{43}$/);
    expect(q.state).toMatch(/^[\w-]{43}$/);
    expect(q.nonce).toMatch(/^[\w-]{43}$/);
    expect(setCookies(res).faultline_oidc).toMatch(/^faultline_oidc=[\w-]+; Path=\/api\/v1\/auth\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
  });

  it("creates a new user with the default role, opens a session and lands on next", async () => {
    const browser = new Browser();
    const callback = await throughProvider(server, browser, "nora", { next: "/runs?project=default" });
    const res = await browser.fetch(callback);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/runs?project=default");
    const cookies = setCookies(res);
    expect(cookies.faultline_oidc).toBe("faultline_oidc=; Path=/api/v1/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=0");
    expect(cookies.faultline_session).toMatch(/^faultline_session=[\w-]+; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/);
    expect(cookies.faultline_csrf).toMatch(/^faultline_csrf=[\w-]+; Path=\/; Max-Age=\d+; SameSite=Lax$/);
    const user = await userByEmail("nora@example.com");
    expect(user).toMatchObject({ name: "Nora New", password_hash: null, instance_owner: 0 });
    expect(await server.store.all("SELECT project_id, role FROM memberships WHERE user_id = ?", [user!.id])).toEqual([{ project_id: "default", role: "viewer" }]);
    expect(await server.store.all("SELECT issuer, subject, email FROM oidc_identities WHERE user_id = ?", [user!.id])).toEqual([{ issuer: provider.issuer, subject: "nora", email: "nora@example.com" }]);
    // The cookie is the session's token: its hash is the row's key.
    expect(await sessionsOf(user!.id)).toEqual([{ token_hash: sha256(browser.cookie(server.url, "faultline_session")!), method: "oidc" }]);
    const audit = await auditOf("nora@example.com");
    expect(audit.map(({ address: _, ...a }) => a)).toEqual([
      { project_id: "default", actor_user_id: user!.id, actor_label: "nora@example.com", action: "member.joined", target: "nora@example.com", detail: '{"method":"oidc","role":"viewer"}' },
      { project_id: null, actor_user_id: user!.id, actor_label: "nora@example.com", action: "auth.sign_in", target: "nora@example.com", detail: '{"method":"oidc"}' },
    ]);
    expect(audit.map((a) => a.address)).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("signs the same identity in again as the same user", async () => {
    const first = new Browser();
    expect((await first.fetch(await throughProvider(server, first, "rex"))).headers.get("location")).toBe("/");
    const rex = await userByEmail("rex@example.com");
    const second = new Browser();
    const res = await second.fetch(await throughProvider(server, second, "rex", { next: "/tools" }));
    expect([res.status, res.headers.get("location")]).toEqual([303, "/tools"]);
    expect(await userByEmail("rex@example.com")).toEqual(rex);
    expect(await server.store.all("SELECT count(*) AS n FROM oidc_identities WHERE subject = 'rex'")).toEqual([{ n: 1 }]);
    const sessions = await sessionsOf(rex!.id);
    expect(sessions.map((s) => s.token_hash)).toEqual([sha256(first.cookie(server.url, "faultline_session")!), sha256(second.cookie(server.url, "faultline_session")!)]);
    expect((await auditOf("rex@example.com")).map((a) => a.action)).toEqual(["member.joined", "auth.sign_in", "auth.sign_in"]);
  });

  it("matches an existing password user by verified email and links the identity", async () => {
    const browser = new Browser();
    const res = await browser.fetch(await throughProvider(server, browser, "pat"));
    expect(res.status).toBe(303);
    expect(await userByEmail("pat@example.com")).toEqual({ id: patId, name: "Pat", password_hash: PASSWORD_HASH, instance_owner: 0 });
    expect(await server.store.all("SELECT user_id, email FROM oidc_identities WHERE subject = 'pat'")).toEqual([{ user_id: patId, email: "pat@example.com" }]);
    expect(await server.store.all("SELECT project_id FROM memberships WHERE user_id = ?", [patId])).toEqual([]);
    expect((await sessionsOf(patId)).map((s) => s.method)).toEqual(["oidc"]);
    expect((await auditOf("pat@example.com")).map((a) => [a.action, a.actor_user_id, a.detail])).toEqual([
      ["user.identity_linked", patId, `{"method":"oidc","issuer":"${provider.issuer}"}`],
      ["auth.sign_in", patId, '{"method":"oidc"}'],
    ]);
  });

  it("refuses an unverified email, even one that names an existing account", async () => {
    const browser = new Browser();
    const res = await browser.fetch(await throughProvider(server, browser, "mallory", { next: "/runs" }));
    expect([res.status, res.headers.get("location")]).toEqual([303, "/sign-in?error=sso_email_unverified&next=%2Fruns"]);
    expect(setCookies(res).faultline_session).toBeUndefined();
    expect(await server.store.all("SELECT subject FROM oidc_identities WHERE subject = 'mallory'")).toEqual([]);
    expect(await sessionsOf(ownerId)).toEqual([]);
    expect((await auditOf("owner@example.com")).map(({ address: _, ...a }) => a)).toEqual([
      {
        project_id: null,
        actor_user_id: null,
        actor_label: "owner@example.com",
        action: "auth.sign_in_failed",
        target: "owner@example.com",
        detail: '{"method":"oidc","reason":"email_unverified","message":"the provider has not verified owner@example.com"}',
      },
    ]);
  });

  it("refuses a provider that shares no email", async () => {
    const browser = new Browser();
    const res = await browser.fetch(await throughProvider(server, browser, "ghost"));
    expect(res.headers.get("location")).toBe("/sign-in?error=sso_email_missing");
    expect(await server.store.all("SELECT count(*) AS n FROM oidc_identities WHERE subject = 'ghost'")).toEqual([{ n: 0 }]);
  });

  it("refuses a disabled user", async () => {
    const browser = new Browser();
    await browser.fetch(await throughProvider(server, browser, "dora"));
    const dora = await userByEmail("dora@example.com");
    await server.store.run("UPDATE users SET disabled_at = ? WHERE id = ?", [Date.now(), dora!.id]);
    const again = new Browser();
    const res = await again.fetch(await throughProvider(server, again, "dora"));
    expect(res.headers.get("location")).toBe("/sign-in?error=sso_account_disabled");
    expect(setCookies(res).faultline_session).toBeUndefined();
    expect((await auditOf("dora@example.com")).map((a) => [a.action, a.actor_user_id])).toEqual([
      ["member.joined", dora!.id],
      ["auth.sign_in", dora!.id],
      ["auth.sign_in_failed", dora!.id],
    ]);
  });

  it("refuses an answer whose state is not this browser's attempt, without redeeming the code", async () => {
    const browser = new Browser();
    const callback = await throughProvider(server, browser, "nina", { next: "/codes" });
    callback.searchParams.set("state", "forged-state");
    const res = await browser.fetch(callback);
    expect([res.status, res.headers.get("location")]).toEqual([303, "/sign-in?error=sso_state_mismatch&next=%2Fcodes"]);
    expect(await userByEmail("nina@example.com")).toBeUndefined();
    const failed = await server.store.all<{ detail: string }>("SELECT detail FROM audit_log WHERE action = 'auth.sign_in_failed' AND detail LIKE '%state_mismatch%'");
    expect(failed).toEqual([{ detail: '{"method":"oidc","reason":"state_mismatch","message":"the state parameter does not match this browser\'s sign-in attempt"}' }]);
  });

  it("refuses a callback without this browser's flow cookie (expired, or another browser), without an audit entry", async () => {
    const browser = new Browser();
    const callback = await throughProvider(server, browser, "sam");
    const before = await server.store.all("SELECT id FROM audit_log");
    const res = await fetch(callback, { redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([303, "/sign-in?error=sso_expired"]);
    const tampered = await fetch(callback, { redirect: "manual", headers: { cookie: "faultline_oidc=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });
    expect(tampered.headers.get("location")).toBe("/sign-in?error=sso_expired");
    expect(await server.store.all("SELECT id FROM audit_log")).toEqual(before);
    expect(await userByEmail("sam@example.com")).toBeUndefined();
  });

  it("refuses a replayed callback: the provider redeems a code once", async () => {
    const browser = new Browser();
    const callback = await throughProvider(server, browser, "rex", { next: "/alerts" });
    const flowCookie = browser.cookie(server.url, "faultline_oidc")!;
    expect((await browser.fetch(callback)).headers.get("location")).toBe("/alerts");
    const replay = await fetch(callback, { redirect: "manual", headers: { cookie: `faultline_oidc=${flowCookie}` } });
    expect([replay.status, replay.headers.get("location")]).toEqual([303, "/sign-in?error=sso_invalid_response&next=%2Falerts"]);
    expect(setCookies(replay).faultline_session).toBeUndefined();
    const failed = await server.store.all<{ detail: string }>("SELECT detail FROM audit_log WHERE action = 'auth.sign_in_failed' AND detail LIKE '%invalid_response%'");
    expect(failed.map((f) => JSON.parse(f.detail) as unknown)).toEqual([{ method: "oidc", reason: "invalid_response", message: expect.stringMatching(/^code exchange: invalid_grant/) }]);
  });

  it("ends a sign-in cancelled at the provider (access_denied) on the sign-in page", async () => {
    const browser = new Browser();
    const callback = await throughProvider(server, browser, "cleo", { next: "/drift", abort: true });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    const res = await browser.fetch(callback);
    expect([res.status, res.headers.get("location")]).toEqual([303, "/sign-in?error=sso_cancelled&next=%2Fdrift"]);
    const failed = await server.store.all<{ actor_label: string; detail: string }>("SELECT actor_label, detail FROM audit_log WHERE action = 'auth.sign_in_failed' AND detail LIKE '%cancelled%'");
    expect(failed).toEqual([{ actor_label: "anonymous", detail: '{"method":"oidc","reason":"cancelled","message":"the provider answered access_denied"}' }]);
  });

  it.each([["https://evil.example/steal"], ["//evil.example/x"], ["/\\evil.example"], ["/api/v1/auth/oidc/start"], ["runs"]])("lands on / instead of next=%j", async (next) => {
    const browser = new Browser();
    const res = await browser.fetch(await throughProvider(server, browser, "rex", { next }));
    expect([res.status, res.headers.get("location")]).toEqual([303, "/"]);
  });

  it("answers GET only", async () => {
    const res = await fetch(`${server.url}/api/v1/auth/oidc/callback`, { method: "POST" });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ error: { code: "method_not_allowed", message: "POST is not supported here; use GET" } });
  });
});

describe("without single sign-on configured (the shared server)", () => {
  it("offers password sign-in only and has no start or callback", async () => {
    const url = inject("serverUrl");
    expect(await (await fetch(`${url}/api/v1/auth/providers`)).json()).toEqual({ password: true, oidc: null });
    for (const p of ["/api/v1/auth/oidc/start?next=/", CALLBACK]) {
      const res = await fetch(url + p, { redirect: "manual" });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: "not_found", message: "single sign-on is not configured on this Faultline (docs/sso.md)" } });
    }
  });
});

describe("a provider that is down", () => {
  it("answers 503 on start instead of failing, and works once the provider is up", async () => {
    const down = await reserveOidcProvider();
    const node = await startServer({
      dialect: inject("serverDialect"),
      env: { FAULTLINE_OIDC_ISSUER: down.issuer, FAULTLINE_OIDC_CLIENT_ID: down.clientId, FAULTLINE_OIDC_CLIENT_SECRET: down.clientSecret },
    });
    try {
      const res = await fetch(`${node.url}/api/v1/auth/oidc/start?next=/`, { redirect: "manual" });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("30");
      expect(await res.json()).toEqual({ error: { code: "unavailable", message: `the single sign-on provider ${down.issuer} cannot be reached; try again later` } });
      expect((await fetch(`${node.url}/api/health`)).status).toBe(200);
      await down.listen(node.url + CALLBACK);
      const up = await fetch(`${node.url}/api/v1/auth/oidc/start?next=/`, { redirect: "manual" });
      expect(up.status).toBe(302);
      expect(up.headers.get("location")).toMatch(new RegExp(`^${down.issuer}/auth\\?`));

      // Down again between the provider's answer and the code exchange: back to the sign-in page.
      down.accounts.set("una", { email: "una@example.com", email_verified: true });
      const browser = new Browser();
      const callback = await throughProvider(node, browser, "una");
      await down.close();
      const back = await browser.fetch(callback);
      expect([back.status, back.headers.get("location")]).toEqual([303, "/sign-in?error=sso_unavailable"]);
      expect(await node.store.all("SELECT count(*) AS n FROM users")).toEqual([{ n: 0 }]);
    } finally {
      await node.stop();
      await down.close();
    }
  });
});

describe("a partial configuration", () => {
  it("stops the start with one line naming the missing variable", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "faultline-oidc-"));
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(process.cwd(), "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)], {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", FAULTLINE_DB_PATH: path.join(dir, "db.sqlite"), FAULTLINE_OIDC_ISSUER: "https://idp.example", FAULTLINE_OIDC_CLIENT_ID: "faultline", FAULTLINE_OIDC_CLIENT_SECRET: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(output.split("\n").filter((l) => l.includes("[faultline]"))).toEqual([
      "[faultline] cannot start: FAULTLINE_OIDC_CLIENT_SECRET is missing: single sign-on needs FAULTLINE_OIDC_ISSUER, FAULTLINE_OIDC_CLIENT_ID, FAULTLINE_OIDC_CLIENT_SECRET together (set: FAULTLINE_OIDC_CLIENT_ID, FAULTLINE_OIDC_ISSUER); set it, or unset the others to turn single sign-on off",
    ]);
  });
});
