// Team access on a real server of its own (it leaves setup mode, which the shared server must keep):
// the setup link, sign-in and sign-out, CSRF, throttling per address and per account, invitations,
// the last owner, disabled accounts; and on a second server with seven-second sessions, expiry and
// the sliding refresh.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createInvitation } from "@/db/auth/invitations";
import { createSetupToken } from "@/db/auth/setup-tokens";
import { setUserDisabled } from "@/db/auth/users";
import { createProject } from "@/db/keys";
import { meSchema, invitationCreatedSchema, invitationInfoSchema, invitationsSchema, membersSchema } from "@/lib/contracts/auth";
import { alertRuleSchema } from "@/lib/contracts/alerts";
import { tokenHash } from "@/server/auth/tokens";
import { startServer, type TestServer } from "../helpers/server";
import { asSession, cookiesOf, PASSWORD, postSignIn, seedUser, sessionOf, setupLinkOf, signIn, type Session } from "../helpers/team";

const WINDOW_MS = 600_000;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    dialect: inject("serverDialect"),
    // Three failures per address and per account; the client address from X-Forwarded-For, so one test machine can be many clients.
    env: { FAULTLINE_AUTH_MAX_FAILURES: "3", FAULTLINE_AUTH_WINDOW_MS: String(WINDOW_MS), FAULTLINE_TRUST_PROXY: "1" },
  });
});
afterAll(async () => {
  await server?.stop();
});

const OWNER = "owner@example.com";
let owner: Session;

const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({ method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error;
const me = async (session: Session) => fetch(`${server.url}/api/v1/auth/me`, asSession(session));
const auditActions = async (target: string) =>
  (await server.store.all<{ action: string; address: string | null }>("SELECT action, address FROM audit_log WHERE target = ? ORDER BY id", [target])).map((r) => [r.action, r.address]);

describe("the setup link", () => {
  it("is printed at start, creates the instance owner once, and signs them in", async () => {
    const link = setupLinkOf(server.output());
    expect(link.origin).toBe(server.url);
    expect((await fetch(link)).status).toBe(200);
    // Setup mode until then: the dashboard is open, and /me says so.
    expect(meSchema.parse(await (await fetch(`${server.url}/api/v1/auth/me`)).json())).toMatchObject({ caller: "open", user: null, setupMode: true });

    const token = link.searchParams.get("token")!;
    // The link an earlier start printed (each start before setup prints one): valid until setup.
    const earlier = "earlier-start-earlier-start-earlier-start-x";
    await createSetupToken(server.store, tokenHash(earlier), Date.now(), Date.now() + 3_600_000);
    expect((await fetch(`${server.url}/setup?token=${earlier}`)).status).toBe(200);
    const body = { token, email: " Owner@Example.COM ", name: "Olive Owner", password: PASSWORD };
    let res = await fetch(`${server.url}/api/v1/auth/setup`, json("POST", { ...body, password: "short" }));
    expect([res.status, (await errorOf(res)).message]).toEqual([400, "invalid body: password: at least 10 characters"]);
    res = await fetch(`${server.url}/api/v1/auth/setup`, json("POST", { ...body, token: "A".repeat(43) }));
    expect(res.status).toBe(404);

    res = await fetch(`${server.url}/api/v1/auth/setup`, json("POST", body));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ user: { id: expect.any(String), email: OWNER, name: "Olive Owner", instanceOwner: true } });
    const [sessionCookie, csrfCookie] = res.headers.getSetCookie();
    expect(sessionCookie).toMatch(/^faultline_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=604800; SameSite=Lax; HttpOnly$/);
    expect(csrfCookie).toMatch(/^faultline_csrf=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=604800; SameSite=Lax$/);
    owner = sessionOf(res);

    // Used once: the API and the page both refuse it now.
    res = await fetch(`${server.url}/api/v1/auth/setup`, json("POST", { ...body, email: "second@example.com" }));
    expect([res.status, (await errorOf(res)).message]).toEqual([404, "this setup link was used already, has expired, or was never issued; print a new one with `npm run keys -- setup-link`"]);
    expect((await fetch(link)).status).toBe(404);
    // Setup ended the earlier link too: an old log line cannot make another owner or reset this one.
    res = await fetch(`${server.url}/api/v1/auth/setup`, json("POST", { ...body, token: earlier, email: "late@example.com" }));
    expect(res.status).toBe(404);
    expect((await fetch(`${server.url}/setup?token=${earlier}`)).status).toBe(404);
    expect(await server.store.get("SELECT count(*) AS n FROM setup_tokens WHERE used_at IS NULL")).toEqual({ n: 0 });

    const who = meSchema.parse(await (await me(owner)).json());
    expect(who).toEqual({
      caller: "user",
      user: { id: expect.any(String), email: OWNER, name: "Olive Owner", instanceOwner: true },
      memberships: [{ projectId: "default", projectName: "Default project", role: "owner" }],
      setupMode: false,
    });
    // Owner of every project that existed, as a membership.
    expect(await server.store.all("SELECT project_id, role FROM memberships WHERE user_id = ?", [who.user!.id])).toEqual([{ project_id: "default", role: "owner" }]);
    expect(await auditActions(OWNER)).toEqual([["instance.setup", "127.0.0.1"]]);
  });

  it("refuses an expired link", async () => {
    const token = "expired-token-expired-token-expired-token-x";
    await server.store.run("INSERT INTO setup_tokens (token_hash, created_at, expires_at) VALUES (?, ?, ?)", [tokenHash(token), Date.now() - 90_000_000, Date.now() - 3_600_000]);
    const res = await fetch(`${server.url}/api/v1/auth/setup`, json("POST", { token, email: "late@example.com", name: "Late", password: PASSWORD }));
    expect(res.status).toBe(404);
    expect((await fetch(`${server.url}/setup?token=${token}`)).status).toBe(404);
  });

  it("restores a locked-out owner from a new link (new password, other sessions ended)", async () => {
    const other = await signIn(server.url, OWNER);
    const token = "restore-token-restore-token-restore-token-x";
    await createSetupToken(server.store, tokenHash(token), Date.now(), Date.now() + 60_000);
    const res = await fetch(`${server.url}/api/v1/auth/setup`, json("POST", { token, email: OWNER, name: "Olive O.", password: "a brand new password" }));
    expect(res.status).toBe(201);
    expect((await res.json()) as unknown).toMatchObject({ user: { email: OWNER, name: "Olive O.", instanceOwner: true } });
    expect((await me(other)).status).toBe(401);
    expect((await me(owner)).status).toBe(401);
    expect((await postSignIn(server.url, OWNER, PASSWORD, "10.77.0.1")).status).toBe(401);
    owner = await signIn(server.url, OWNER, "a brand new password");
  });
});

describe("once an owner exists", () => {
  it("sends anonymous pages to the sign-in page and answers anonymous API requests 401", async () => {
    let res = await fetch(`${server.url}/tools?window=24h`, { redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([307, "/sign-in?next=%2Ftools%3Fwindow%3D24h"]);
    res = await fetch(`${server.url}/api/v1/tools`);
    expect([res.status, await res.json(), res.headers.get("www-authenticate")]).toEqual([401, { error: { code: "unauthorized", message: "sign in first" } }, 'Bearer realm="faultline"']);
    // The sign-in page, the invitation pages and the auth API need no session.
    expect((await fetch(`${server.url}/sign-in`)).status).toBe(200);
    expect((await fetch(`${server.url}/invite/${"x".repeat(43)}`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/auth/me`)).status).toBe(401);
    // A signed-in browser on the sign-in page goes where `next` says (same-site paths only).
    res = await fetch(`${server.url}/sign-in?next=${encodeURIComponent("//evil.example/x")}`, asSession(owner));
    expect([res.status, res.headers.get("location")]).toEqual([307, "/"]);
    res = await fetch(`${server.url}/sign-in?next=${encodeURIComponent("/runs?state=failed")}`, asSession(owner));
    expect([res.status, res.headers.get("location")]).toEqual([307, "/runs?state=failed"]);
  });
});

describe("sign-in and sign-out", () => {
  it("signs in with the right password only, audits both with the address, and signs out", async () => {
    let res = await postSignIn(server.url, OWNER, "not the password", "10.1.1.1");
    expect([res.status, await res.json()]).toEqual([401, { error: { code: "unauthorized", message: "wrong email or password" } }]);
    res = await postSignIn(server.url, "nobody@example.com", "not the password", "10.1.1.2");
    expect([res.status, await res.json()]).toEqual([401, { error: { code: "unauthorized", message: "wrong email or password" } }]);
    res = await postSignIn(server.url, "OWNER@example.com", "a brand new password", "10.1.1.3");
    expect(res.status).toBe(200);
    const session = sessionOf(res);
    expect((await me(session)).status).toBe(200);
    expect((await auditActions(OWNER)).slice(-2)).toEqual([
      ["auth.sign_in_failed", "10.1.1.1"],
      ["auth.sign_in", "10.1.1.3"],
    ]);
    expect(await auditActions("nobody@example.com")).toEqual([["auth.sign_in_failed", "10.1.1.2"]]);
    // Behind a trusted proxy that terminated HTTPS, the cookies are Secure.
    res = await fetch(`${server.url}/api/v1/auth/sign-in`, json("POST", { email: OWNER, password: "a brand new password" }, { "x-forwarded-proto": "https" }));
    expect(res.headers.getSetCookie().map((c) => c.endsWith("; Secure"))).toEqual([true, true]);

    res = await fetch(`${server.url}/api/v1/auth/sign-out`, asSession(session, "POST"));
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie()).toEqual(["faultline_session=; Path=/; Max-Age=0; SameSite=Lax; HttpOnly", "faultline_csrf=; Path=/; Max-Age=0; SameSite=Lax"]);
    expect((await me(session)).status).toBe(401);
    expect((await me(owner)).status).toBe(200);
    expect((await auditActions(OWNER)).at(-1)).toEqual(["auth.sign_out", "127.0.0.1"]);
  });

  it("ends every session of the account with sign-out everywhere", async () => {
    await seedUser(server.store, "roamer@example.com", { default: "viewer" });
    const [a, b] = [await signIn(server.url, "roamer@example.com"), await signIn(server.url, "roamer@example.com")];
    const res = await fetch(`${server.url}/api/v1/auth/sign-out-everywhere`, asSession(a, "POST"));
    expect([res.status, await res.json()]).toEqual([200, { sessionsEnded: 2 }]);
    expect([(await me(a)).status, (await me(b)).status, (await me(owner)).status]).toEqual([401, 401, 200]);
  });

  it("keeps last_seen_at while the session is younger than a minute (it slides at most once a minute)", async () => {
    const session = await signIn(server.url, OWNER, "a brand new password");
    const hash = tokenHash(session.cookie.match(/faultline_session=([^;]+)/)![1]!);
    const before = await server.store.get<{ last_seen_at: number; created_at: number }>("SELECT last_seen_at, created_at FROM sessions WHERE token_hash = ?", [hash]);
    for (let i = 0; i < 3; i++) expect((await me(session)).status).toBe(200);
    const after = await server.store.get<{ last_seen_at: number }>("SELECT last_seen_at FROM sessions WHERE token_hash = ?", [hash]);
    expect(Number(after!.last_seen_at)).toBe(Number(before!.created_at));
  });
});

describe("CSRF", () => {
  it("refuses a session's change without the right x-faultline-csrf header, and takes the right one", async () => {
    const rule = { project: "default", name: "csrf check", params: { kind: "new_code" } };
    const url = `${server.url}/api/v1/alerts/rules`;
    let res = await fetch(url, json("POST", rule, { cookie: owner.cookie }));
    expect([res.status, await res.json()]).toEqual([
      403,
      { error: { code: "forbidden", message: "missing x-faultline-csrf header: a signed-in browser sends the value of its faultline_csrf cookie with every change" } },
    ]);
    res = await fetch(url, json("POST", rule, { cookie: owner.cookie, "x-faultline-csrf": "A".repeat(43) }));
    expect([res.status, await res.json()]).toEqual([403, { error: { code: "forbidden", message: "wrong x-faultline-csrf header: it must equal the faultline_csrf cookie of this session" } }]);
    res = await fetch(url, asSession(owner, "POST", rule));
    expect(res.status).toBe(201);
    const created = alertRuleSchema.parse(await res.json());
    // A bodiless DELETE is checked the same way.
    res = await fetch(`${url}/${created.id}`, { method: "DELETE", headers: { cookie: owner.cookie } });
    expect(res.status).toBe(403);
    res = await fetch(`${url}/${created.id}`, asSession(owner, "DELETE"));
    expect(res.status).toBe(204);
    // Sign-out too: a cross-site page must not end someone's session.
    res = await fetch(`${server.url}/api/v1/auth/sign-out`, { method: "POST", headers: { cookie: owner.cookie } });
    expect(res.status).toBe(403);
    expect((await me(owner)).status).toBe(200);
  });
});

describe("alert changes", () => {
  it("need an admin to edit and a member to mute, and are audited with the actor and address", async () => {
    await createProject(server.store, "alerts", "Alerts");
    await seedUser(server.store, "ada@example.com", { alerts: "admin" });
    await seedUser(server.store, "mo@example.com", { alerts: "member" });
    await seedUser(server.store, "vi@example.com", { alerts: "viewer" });
    const [ada, mo, vi] = [await signIn(server.url, "ada@example.com"), await signIn(server.url, "mo@example.com"), await signIn(server.url, "vi@example.com")];
    let res = await fetch(`${server.url}/api/v1/alerts/receivers`, asSession(ada, "POST", { project: "alerts", name: "ops", url: "https://hooks.example/T000/B000/secret" }));
    expect(res.status).toBe(201);
    const receiver = ((await res.json()) as { id: number }).id;
    // Members and viewers see where a webhook goes, not its path (a Slack hook's path is its credential).
    const urls = async (s: Session) => ((await (await fetch(`${server.url}/api/v1/alerts/receivers?project=alerts`, asSession(s))).json()) as { receivers: { url: string }[] }).receivers.map((r) => r.url);
    expect([await urls(ada), await urls(mo), await urls(vi)]).toEqual([["https://hooks.example/T000/B000/secret"], ["https://hooks.example/…"], ["https://hooks.example/…"]]);

    res = await fetch(`${server.url}/api/v1/alerts/rules`, asSession(ada, "POST", { project: "alerts", name: "new codes", params: { kind: "new_code" }, receiverId: receiver }));
    const rule = alertRuleSchema.parse(await res.json());
    const at = `${server.url}/api/v1/alerts/rules/${rule.id}`;
    expect((await fetch(at, asSession(mo, "PATCH", { name: "renamed" }))).status).toBe(403);
    expect((await fetch(at, asSession(vi, "PATCH", { muted: true }))).status).toBe(403);
    expect((await fetch(at, asSession(mo, "PATCH", { muted: true }))).status).toBe(200);
    expect((await fetch(at, asSession(mo, "PATCH", { muted: false, snoozedUntil: null }))).status).toBe(200);
    expect((await fetch(at, asSession(ada, "PATCH", { name: "renamed" }))).status).toBe(200);
    expect((await fetch(at, asSession(mo, "DELETE"))).status).toBe(403);
    expect((await fetch(at, asSession(ada, "DELETE"))).status).toBe(204);
    expect((await fetch(`${server.url}/api/v1/alerts/receivers/${receiver}`, asSession(ada, "DELETE"))).status).toBe(204);

    const audit = await server.store.all<{ action: string; actor_label: string; target: string; address: string }>(
      "SELECT action, actor_label, target, address FROM audit_log WHERE project_id = 'alerts' ORDER BY id",
    );
    expect(audit.map((a) => [a.action, a.actor_label, a.target, a.address])).toEqual([
      ["receiver.created", "ada@example.com", "ops", "127.0.0.1"],
      ["rule.created", "ada@example.com", "new codes", "127.0.0.1"],
      ["alert.muted", "mo@example.com", "new codes", "127.0.0.1"],
      ["alert.unmuted", "mo@example.com", "new codes", "127.0.0.1"],
      ["rule.updated", "ada@example.com", "renamed", "127.0.0.1"],
      ["rule.deleted", "ada@example.com", "renamed", "127.0.0.1"],
      ["receiver.deleted", "ada@example.com", "ops", "127.0.0.1"],
    ]);
  });
});

describe("sign-in throttling", () => {
  const limited = (message: string) => [429, { error: { code: "rate_limited", message } }];
  const expectWindow = (res: Response, windows = 1) => {
    const retry = Number(res.headers.get("retry-after"));
    expect(retry).toBeGreaterThan((windows * WINDOW_MS) / 1000 - 120);
    expect(retry).toBeLessThanOrEqual((windows * WINDOW_MS) / 1000);
  };

  it("answers 429 + Retry-After to an account from an address after three failures there; the account elsewhere and others here are not affected", async () => {
    const user = await seedUser(server.store, "pair@example.com", { default: "member" });
    await seedUser(server.store, "neighbour@example.com", { default: "member" });
    for (let i = 0; i < 3; i++) expect((await postSignIn(server.url, "pair@example.com", `wrong ${i}`, "10.2.0.1")).status).toBe(401);
    for (const password of ["wrong password", PASSWORD]) {
      const res = await postSignIn(server.url, "pair@example.com", password, "10.2.0.1");
      expect([res.status, await res.json()]).toEqual(limited("too many failed sign-ins for this account from this address; retry later"));
      expectWindow(res);
    }
    // Someone else's mistakes on a shared address (NAT, a proxy, loopback) lock nobody else out,
    // and the account still signs in from another address (issue 25).
    expect((await postSignIn(server.url, "neighbour@example.com", PASSWORD, "10.2.0.1")).status).toBe(200);
    expect((await postSignIn(server.url, "pair@example.com", PASSWORD, "10.2.0.2")).status).toBe(200);
    expect((await server.store.get<{ n: number }>("SELECT failed_sign_ins AS n FROM users WHERE id = ?", [user.id]))!.n).toBe(0);
  });

  it("stops an address after thirty failures across accounts (ten times the limit), whatever it sends", async () => {
    for (let i = 0; i < 30; i++) expect((await postSignIn(server.url, `spray${i}@example.com`, "wrong password", "10.6.0.1")).status).toBe(401);
    const res = await postSignIn(server.url, OWNER, "a brand new password", "10.6.0.1");
    expect([res.status, await res.json()]).toEqual(limited("too many failed sign-in attempts from this address; retry later"));
    expectWindow(res);
    expect((await postSignIn(server.url, OWNER, "a brand new password", "10.6.0.2")).status).toBe(200);
  }, 120_000);

  it("blocks an account after thirty failures from any addresses (ten times the limit), doubling the block with each further one", async () => {
    const user = await seedUser(server.store, "target@example.com", { default: "member" });
    for (let i = 0; i < 30; i++) expect((await postSignIn(server.url, "target@example.com", `wrong ${i}`, `10.3.2.${i + 10}`)).status).toBe(401);
    let res = await postSignIn(server.url, "target@example.com", PASSWORD, "10.3.0.4");
    expect([res.status, await res.json()]).toEqual(limited("too many failed sign-ins for this account; retry later"));
    expectWindow(res);
    const state = await server.store.get<{ failed_sign_ins: number; sign_in_blocked_until: number }>("SELECT failed_sign_ins, sign_in_blocked_until FROM users WHERE id = ?", [user.id]);
    expect(Number(state!.failed_sign_ins)).toBe(30);

    // The block over (moved into the past here), the next failure blocks for twice the window.
    await server.store.run("UPDATE users SET sign_in_blocked_until = ? WHERE id = ?", [Date.now() - 1, user.id]);
    expect((await postSignIn(server.url, "target@example.com", "wrong 4", "10.3.0.5")).status).toBe(401);
    res = await postSignIn(server.url, "target@example.com", PASSWORD, "10.3.0.6");
    expect(res.status).toBe(429);
    expectWindow(res, 2);

    // A success after the block forgets the failures.
    await server.store.run("UPDATE users SET sign_in_blocked_until = ? WHERE id = ?", [Date.now() - 1, user.id]);
    expect((await postSignIn(server.url, "target@example.com", PASSWORD, "10.3.0.7")).status).toBe(200);
    const cleared = await server.store.get<{ failed_sign_ins: number; sign_in_blocked_until: number | null }>("SELECT failed_sign_ins, sign_in_blocked_until FROM users WHERE id = ?", [user.id]);
    expect([Number(cleared!.failed_sign_ins), cleared!.sign_in_blocked_until]).toEqual([0, null]);
  }, 120_000);

  it("throttles guessed invitation and setup tokens by token and by address, at ten times the limit (links are reopened honestly)", async () => {
    const info = (token: string, from: string) => fetch(`${server.url}/api/v1/auth/invitations/${token}`, { headers: { "x-forwarded-for": from } });
    const guess = "A".repeat(43);
    for (let i = 0; i < 30; i++) expect((await info(guess, `10.5.1.${i}`)).status).toBe(404);
    const same = await info(guess, "10.5.2.1");
    expect([same.status, await same.json()]).toEqual(limited("this invitation link failed too many times; it is invalid, revoked or expired: retry later with a valid one"));
    for (let i = 0; i < 30; i++) expect((await info(`${"B".repeat(41)}${String(i).padStart(2, "0")}`, "10.5.0.1")).status).toBe(404);
    const other = await info("C".repeat(43), "10.5.0.1");
    expect([other.status, await other.json()]).toEqual(limited("too many failed invitation link attempts from this address; retry later"));
    expectWindow(other);
    const setup = (token: string) => fetch(`${server.url}/api/v1/auth/setup`, json("POST", { token, email: "x@example.com", name: "X", password: "a long enough password" }, { "x-forwarded-for": "10.5.0.2" }));
    for (let i = 0; i < 30; i++) expect((await setup(`${"D".repeat(41)}${String(i).padStart(2, "0")}`)).status).toBe(404);
    const blocked = await setup("E".repeat(43));
    expect([blocked.status, await blocked.json()]).toEqual(limited("too many failed setup link attempts from this address; retry later"));
  }, 120_000);
});

describe("invitations", () => {
  const invite = async (session: Session, project: string, role: string, email: string | null = null) => {
    const res = await fetch(`${server.url}/api/v1/projects/${project}/invitations`, asSession(session, "POST", { role, email }));
    expect(res.status).toBe(201);
    const created = invitationCreatedSchema.parse(await res.json());
    expect(created.url).toMatch(new RegExp(`^${server.url}/invite/[A-Za-z0-9_-]{43}$`));
    return { ...created, token: created.url.split("/invite/")[1]! };
  };

  it("creates an account from a link (once), and the new viewer sees that project only", async () => {
    await createProject(server.store, "inv-a", "Invitations A");
    const created = await invite(owner, "inv-a", "viewer", "Vera@Example.com");
    expect(created.invitation).toMatchObject({ projectId: "inv-a", role: "viewer", email: "vera@example.com", createdBy: OWNER });
    let res = await fetch(`${server.url}/api/v1/auth/invitations/${created.token}`);
    expect(invitationInfoSchema.parse(await res.json())).toEqual({ projectId: "inv-a", projectName: "Invitations A", role: "viewer", email: "vera@example.com", invitedBy: "Olive O.", expiresAt: created.invitation.expiresAt });
    res = await fetch(`${server.url}/api/v1/projects/inv-a/invitations`, asSession(owner));
    expect(invitationsSchema.parse(await res.json()).invitations.map((i) => i.id)).toEqual([created.invitation.id]);

    const account = { email: "vera@example.com", name: "Vera", password: PASSWORD };
    res = await fetch(`${server.url}/api/v1/auth/invitations/${created.token}`, json("POST", { email: "vera@example.com" }));
    expect(res.status).toBe(400);
    res = await fetch(`${server.url}/api/v1/auth/invitations/${created.token}`, json("POST", account));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ projectId: "inv-a", role: "viewer", user: { id: expect.any(String), email: "vera@example.com", name: "Vera", instanceOwner: false } });
    const vera = sessionOf(res);
    expect(meSchema.parse(await (await me(vera)).json()).memberships).toEqual([{ projectId: "inv-a", projectName: "Invitations A", role: "viewer" }]);
    expect((await fetch(`${server.url}/api/v1/projects`, asSession(vera)).then((r) => r.json())) as unknown).toEqual({ projects: [{ id: "inv-a", name: "Invitations A", archivedAt: null }] });
    expect((await fetch(`${server.url}/api/v1/tools?project=default`, asSession(vera))).status).toBe(404);

    // Spent: a second use and the page say so; the pending list is empty; the join is audited.
    res = await fetch(`${server.url}/api/v1/auth/invitations/${created.token}`, json("POST", { ...account, email: "other@example.com" }));
    expect(res.status).toBe(404);
    expect((await fetch(`${server.url}/invite/${created.token}`)).status).toBe(404);
    expect(invitationsSchema.parse(await (await fetch(`${server.url}/api/v1/projects/inv-a/invitations`, asSession(owner))).json()).invitations).toEqual([]);
    expect(await auditActions("vera@example.com")).toEqual([
      ["member.invited", "127.0.0.1"],
      ["member.joined", "127.0.0.1"],
    ]);
  });

  it("adds a signed-in user's membership, keeps a stronger role, refuses a taken email, and honours revocation and expiry", async () => {
    await createProject(server.store, "inv-b", "Invitations B");
    await seedUser(server.store, "existing@example.com", { "inv-b": "member" });
    const existing = await signIn(server.url, "existing@example.com");
    // Without a session, an email that has an account is a conflict: sign in first.
    let created = await invite(owner, "inv-b", "admin");
    let res = await fetch(`${server.url}/api/v1/auth/invitations/${created.token}`, json("POST", { email: "existing@example.com", name: "X", password: PASSWORD }));
    expect([res.status, (await errorOf(res)).message]).toEqual([409, "an account with the email existing@example.com exists: sign in, then open this link again"]);
    // Signed in: the membership is raised to the invited role.
    res = await fetch(`${server.url}/api/v1/auth/invitations/${created.token}`, asSession(existing, "POST", {}));
    expect([res.status, ((await res.json()) as { role: string }).role]).toEqual([200, "admin"]);
    // A weaker invitation keeps the stronger role.
    created = await invite(owner, "inv-b", "viewer");
    res = await fetch(`${server.url}/api/v1/auth/invitations/${created.token}`, asSession(existing, "POST", {}));
    expect([res.status, ((await res.json()) as { role: string }).role]).toEqual([200, "admin"]);

    created = await invite(owner, "inv-b", "viewer");
    res = await fetch(`${server.url}/api/v1/projects/inv-b/invitations/${created.invitation.id}`, asSession(owner, "DELETE"));
    expect(res.status).toBe(204);
    expect((await fetch(`${server.url}/api/v1/projects/inv-b/invitations/${created.invitation.id}`, asSession(owner, "DELETE"))).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/auth/invitations/${created.token}`)).status).toBe(404);

    const token = "expired-invitation-expired-invitation-xxxx";
    await createInvitation(server.store, { tokenHash: tokenHash(token), projectId: "inv-b", role: "viewer", email: null, createdBy: null, now: Date.now() - 10_000, expiresAt: Date.now() - 1 });
    res = await fetch(`${server.url}/api/v1/auth/invitations/${token}`, json("POST", { email: "late@example.com", name: "Late", password: PASSWORD }));
    expect([res.status, (await errorOf(res)).message]).toEqual([404, "this invitation link was used already, revoked, has expired, or was never issued; ask a project admin for a new one"]);

    // An admin invites up to admin; only an owner invites an owner.
    res = await fetch(`${server.url}/api/v1/projects/inv-b/invitations`, asSession(existing, "POST", { role: "owner" }));
    expect([res.status, (await errorOf(res)).message]).toEqual([403, "only an owner can invite an owner"]);
    expect((await fetch(`${server.url}/api/v1/projects/inv-b/invitations`, asSession(existing, "POST", { role: "admin" }))).status).toBe(201);
  });
});

describe("members", () => {
  it("keeps the last owner, lets only owners touch the owner role, and audits every change", async () => {
    await createProject(server.store, "own", "Ownership");
    const first = await seedUser(server.store, "first@example.com", { own: "owner" });
    const second = await seedUser(server.store, "second@example.com", { own: "viewer" });
    const admin = await seedUser(server.store, "admin@example.com", { own: "admin" });
    const [firstS, adminS] = [await signIn(server.url, "first@example.com"), await signIn(server.url, "admin@example.com")];
    const member = (userId: string) => `${server.url}/api/v1/projects/own/members/${userId}`;

    let res = await fetch(member(first.id), asSession(firstS, "PATCH", { role: "admin" }));
    expect([res.status, await res.json()]).toEqual([409, { error: { code: "conflict", message: "the last owner of a project cannot be demoted or removed; make someone else owner first" } }]);
    expect((await fetch(member(first.id), asSession(firstS, "DELETE"))).status).toBe(409);
    res = await fetch(member(second.id), asSession(adminS, "PATCH", { role: "owner" }));
    expect([res.status, (await errorOf(res)).message]).toEqual([403, "only an owner can grant, change or remove the owner role"]);
    expect((await fetch(member(first.id), asSession(adminS, "DELETE"))).status).toBe(403);
    res = await fetch(member(second.id), asSession(adminS, "PATCH", { role: "member" }));
    expect([res.status, ((await res.json()) as { role: string }).role]).toEqual([200, "member"]);

    // With a second owner the first may step down.
    expect((await fetch(member(second.id), asSession(firstS, "PATCH", { role: "owner" }))).status).toBe(200);
    expect((await fetch(member(first.id), asSession(firstS, "PATCH", { role: "viewer" }))).status).toBe(200);
    expect((await fetch(member(admin.id), asSession(adminS, "DELETE"))).status).toBe(204);
    expect((await fetch(member(admin.id), asSession(owner, "DELETE"))).status).toBe(404);

    const listed = membersSchema.parse(await (await fetch(`${server.url}/api/v1/projects/own/members`, asSession(firstS))).json());
    expect(listed.members.map((m) => [m.email, m.role])).toEqual([
      ["second@example.com", "owner"],
      ["first@example.com", "viewer"],
    ]);
    const audit = await server.store.all<{ action: string; target: string; detail: string }>("SELECT action, target, detail FROM audit_log WHERE project_id = 'own' ORDER BY id");
    expect(audit.map((a) => [a.action, a.target, JSON.parse(a.detail) as unknown])).toEqual([
      ["member.role_changed", "second@example.com", { userId: second.id, from: "viewer", to: "member" }],
      ["member.role_changed", "second@example.com", { userId: second.id, from: "member", to: "owner" }],
      ["member.role_changed", "first@example.com", { userId: first.id, from: "owner", to: "viewer" }],
      ["member.removed", "admin@example.com", { userId: admin.id, role: "admin" }],
    ]);
  });
});

describe("a disabled account", () => {
  it("loses its sessions and cannot sign in", async () => {
    const user = await seedUser(server.store, "leaver@example.com", { default: "member" });
    const session = await signIn(server.url, "leaver@example.com");
    await setUserDisabled(server.store, user.id, Date.now());
    expect((await me(session)).status).toBe(401);
    let res = await postSignIn(server.url, "leaver@example.com", PASSWORD, "10.4.0.1");
    expect([res.status, await res.json()]).toEqual([403, { error: { code: "forbidden", message: "this account is disabled; ask an instance owner to enable it" } }]);
    res = await postSignIn(server.url, "leaver@example.com", "wrong password", "10.4.0.2");
    expect(res.status).toBe(401);
  });
});

describe("sessions that expire", () => {
  // 0.002 h = 7.2 s: a session slides when it is older than 0.72 s.
  const TTL_MS = 7200;
  let short: TestServer;
  beforeAll(async () => {
    short = await startServer({ dialect: inject("serverDialect"), env: { FAULTLINE_SESSION_TTL_HOURS: "0.002" } });
    await seedUser(short.store, "brief@example.com", { default: "viewer" });
  });
  afterAll(async () => {
    await short?.stop();
  });
  const row = (hash: string) =>
    short.store.get<{ last_seen_at: number; expires_at: number }>("SELECT last_seen_at, expires_at FROM sessions WHERE token_hash = ?", [hash]).then((r) => r && { lastSeen: Number(r.last_seen_at), expires: Number(r.expires_at) });

  it("slide while used (the cookies are sent again), and end after the lifetime without use", async () => {
    const res = await postSignIn(short.url, "brief@example.com", PASSWORD);
    const session = sessionOf(res);
    expect(res.headers.getSetCookie()[0]).toContain("Max-Age=7;");
    const hash = tokenHash(cookiesOf(res).faultline_session!);
    const opened = (await row(hash))!;
    expect(opened.expires - opened.lastSeen).toBe(TTL_MS);

    // Used again after the slide interval: the expiry moves to the request's time + the lifetime.
    let renewed: string[] = [];
    await expect
      .poll(async () => {
        const answer = await fetch(`${short.url}/api/v1/auth/me`, asSession(session));
        expect(answer.status).toBe(200);
        renewed = answer.headers.getSetCookie();
        return (await row(hash))!.expires;
      })
      .toBeGreaterThan(opened.expires);
    const slid = (await row(hash))!;
    expect(slid.expires - slid.lastSeen).toBe(TTL_MS);
    expect(renewed.map((c) => c.split("=")[0])).toEqual(["faultline_session", "faultline_csrf"]);

    // Unused, it ends: wait (on the clock, without requests) until its expiry has passed.
    await expect.poll(() => Date.now(), { timeout: TTL_MS + 5000 }).toBeGreaterThan(slid.expires);
    const after = await fetch(`${short.url}/api/v1/auth/me`, asSession(session));
    expect([after.status, await after.json()]).toEqual([401, { error: { code: "unauthorized", message: "sign in first" } }]);
    expect(await row(hash)).toBeUndefined();
  });
});
