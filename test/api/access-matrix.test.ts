// Who may do what: every API route (each method a route file serves) and every page, read from the
// file system, answered with an exact status for each kind of caller. A route or page added later
// without a row here fails the first test: add a row to ROUTES or PAGES below (see the README's
// "Team access" section for the roles). Then cross-project isolation: a project owner who names
// another project, or another project's run, rule, receiver, invitation or member, gets 404.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAlertReceiver } from "@/db/alerts/receivers";
import { createAlertRule, listAlertRules } from "@/db/alerts/rules";
import { createClassificationRule, listClassificationRules } from "@/db/classify/rules";
import { createInvitation } from "@/db/auth/invitations";
import { addMembership } from "@/db/auth/memberships";
import { createSetupToken } from "@/db/auth/setup-tokens";
import { createUser, type UserRow } from "@/db/auth/users";
import { insertExperiment } from "@/db/experiments/experiment-rows";
import { createKey, createProject } from "@/db/keys";
import { createSavedViewChange } from "@/db/saved-views/saved-views";
import { createSlo } from "@/db/slos/slos";
import { issueId } from "@/lib/triage/issue-batch";
import { newToken, tokenHash } from "@/server/auth/tokens";
import { startServer, type TestServer } from "../helpers/server";
import { PASSWORD, seedUser, sessionOf, setupLinkOf, signIn, type Session } from "../helpers/team";

const SECRET = "matrix-admin-secret-0123456789";
const CALLERS = ["instanceOwner", "owner", "admin", "member", "viewer", "other", "anonymous", "adminSecret"] as const;
type CallerName = (typeof CALLERS)[number];
type Statuses = Record<CallerName, number>;

/** How one caller sends a request: a signed-in browser (cookie, CSRF header on changes), the admin secret over Basic, or nobody. */
interface As {
  name: CallerName;
  send(url: string, method?: string, body?: unknown): Promise<Response>;
  /** The same caller with a session of its own (user callers), for rows that end sessions. */
  fresh(): Promise<As>;
}

let server: TestServer;
const sessions = new Map<CallerName, Session>();
const users = new Map<CallerName, UserRow>();
let alphaKey = "";
let betaKey = "";
let uniq = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++uniq}`;

function caller(name: CallerName, session?: Session): As {
  const own = session ?? sessions.get(name);
  return {
    name,
    send(p, method = "GET", body) {
      const headers: Record<string, string> = {};
      if (own) {
        headers.cookie = own.cookie;
        if (method !== "GET") headers["x-faultline-csrf"] = own.csrf;
      }
      if (name === "adminSecret") headers.authorization = `Basic ${Buffer.from(`ci:${SECRET}`).toString("base64")}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      return fetch(server.url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), redirect: "manual" });
    },
    async fresh() {
      const user = users.get(name);
      return user ? caller(name, await signIn(server.url, user.email)) : caller(name);
    },
  };
}

// ---- expected statuses -------------------------------------------------------------------------

const all = (status: number): Statuses => Object.fromEntries(CALLERS.map((c) => [c, status])) as Statuses;
/** Any member of the project reads; another project's member gets 404; nobody 401. */
const READ: Statuses = { instanceOwner: 200, owner: 200, admin: 200, member: 200, viewer: 200, other: 404, anonymous: 401, adminSecret: 200 };
/** Admins and owners (and the instance-level callers) change; members and viewers 403. */
const ADMIN = (ok: number): Statuses => ({ instanceOwner: ok, owner: ok, admin: ok, member: 403, viewer: 403, other: 404, anonymous: 401, adminSecret: ok });
/** Members and up (muting). */
const MEMBER = (ok: number): Statuses => ({ ...ADMIN(ok), member: ok });
/** A page of the project: anonymous visitors go to the sign-in page. */
const PAGE: Statuses = { ...READ, anonymous: 307 };
/** Anything behind the proxy that the route answers alike for everyone who passes it. */
const SIGNED_IN = (status: number): Statuses => ({ ...all(status), anonymous: 401 });

// ---- the data: projects alpha (the callers'), beta (`other`'s), gamma (joined by invitation rows) ----

const T = Date.now() - 3_600_000;
async function ingest(key: string, tag: string): Promise<void> {
  const records = [
    { type: "run", id: `run-${tag}`, run_id: `run-${tag}`, agent: "agent", started_at: T, ended_at: T + 100, state: "failed" },
    {
      type: "tool_call_span", id: `span-${tag}`, run_id: `run-${tag}`, call_id: `call-${tag}`, tool: `lookup-${tag}`, attempt: 1, started_at: T + 1, ended_at: T + 5,
      outcome: "failed", code: `${tag}_code`, error_class: "ToolFailure", retryable: true, decision: "surfaced",
    },
  ];
  const res = await fetch(`${server.url}/api/v1/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ resource: { service: "agent", release: "1.0.0" }, records }),
  });
  expect(res.status).toBe(200);
}

const SLO = { name: "search", tools: ["search_*"], objective: 0.99, windowDays: 28, countDeclines: false, countRecovered: false, receiverId: null };
const fresh = {
  slo: async (project = "alpha") => (await server.store.transaction((tx) => createSlo(tx, { project, ...SLO, name: unique("slo") }, Date.now()))).slo.id,
  rule: async (project = "alpha") => (await server.store.transaction((tx) => createAlertRule(tx, { project, name: unique("rule"), params: { kind: "new_code" }, receiverId: null }, Date.now()))).id,
  receiver: async (project = "alpha") =>
    (await server.store.transaction((tx) => createAlertReceiver(tx, { project, name: unique("hook"), url: "https://hooks.example/x", format: "json", secret: "s".repeat(32) }, Date.now()))).id,
  invitation: async (project = "alpha") => {
    const token = newToken();
    const invitation = await server.store.transaction((tx) =>
      createInvitation(tx, { tokenHash: tokenHash(token), projectId: project, role: "viewer", email: null, createdBy: null, now: Date.now(), expiresAt: Date.now() + 86_400_000 }),
    );
    return { id: invitation.id, token };
  },
  /** An account without a password, member of `project`. */
  member: async (project = "alpha") =>
    server.store.transaction(async (tx) => {
      const user = await createUser(tx, { email: `${unique("m")}@example.com`, name: "Target", passwordHash: null, instanceOwner: false, now: Date.now() });
      await addMembership(tx, project, user.id, "viewer", Date.now());
      return user.id;
    }),
  key: async (project = "alpha") => (await createKey(server.store, project, unique("key"))).prefix,
  /** A view of the Runs page the project's member saved and shared. */
  sharedView: async () =>
    (await server.store.transaction((tx) => createSavedViewChange(tx, users.get("member")!.id, { project: "alpha", page: "/runs", name: unique("view"), params: "state=failed", shared: true }, Date.now()))).result.id,
  /** A draft experiment of its own code, so that starting it never meets another running one. */
  experiment: async (project = "alpha") => {
    const id = unique("exp");
    await insertExperiment(server.store, project, { ...experimentBody(), id, code: `code_${id}` }, Date.now());
    return id;
  },
  setupToken: async () => {
    const token = newToken();
    await createSetupToken(server.store, tokenHash(token), Date.now(), Date.now() + 60_000);
    return token;
  },
};

const experimentBody = () => ({
  id: unique("exp"), code: "alpha_code", tool: null, guards: { repeatRate: 0.1, runFailedRate: 0.1, callsUntilRecovery: 1 },
  variants: [{ id: "control", text: "alpha failed", weight: 50 }, { id: "hint", text: "alpha failed: try lookup-beta", weight: 50 }],
});
const account = () => ({ email: `${unique("new")}@example.com`, name: "New Person", password: PASSWORD });
/** The issue alpha's ingested failure opens (see ingest above). */
const ALPHA_ISSUE = issueId("alpha", "lookup-alpha", "alpha_code");
const ruleId = async () => (await listAlertRules(server.store, "alpha"))[0]!.id;
const CLASSIFICATION_RULE = { name: "seats", enabled: true, match: { tool: "book", errorType: null, message: null, httpStatus: [], attributes: [] }, set: { code: "seat_taken", errorClass: null, retryable: null }, overrideEmitter: false };
const classificationRule = async () => {
  const id = `r_${randomBytes(6).toString("hex")}`;
  await server.store.transaction((tx) => createClassificationRule(tx, "alpha", id, CLASSIFICATION_RULE, "test", Date.now()));
  return id;
};

// ---- the rows: one per route file and method, one per page ---------------------------------------

interface Row {
  /** `METHOD /path/with/[segments]` as the route file's folder names it. */
  route: string;
  expect: Statuses;
  send(as: As): Promise<Response>;
}

const row = (route: string, expected: Statuses, send: (as: As) => Promise<Response>): Row => ({ route, expect: expected, send });
const read = (route: string, url: string) => row(`GET ${route}`, READ, (as) => as.send(url));

const ROUTES: Row[] = [
  row("GET /api/[...path]", SIGNED_IN(404), (as) => as.send("/api/v1/no-such-thing")),
  row("GET /api/health", all(200), (as) => as.send("/api/health")),
  read("/api/v1/alerts/history", "/api/v1/alerts/history?project=alpha"),
  read("/api/v1/alerts/receivers", "/api/v1/alerts/receivers?project=alpha"),
  read("/api/v1/issues", "/api/v1/issues?project=alpha"),
  read("/api/v1/issues/counts", "/api/v1/issues/counts?project=alpha"),
  read("/api/v1/issues/[id]", `/api/v1/issues/${ALPHA_ISSUE}?project=alpha`),
  read("/api/v1/releases", "/api/v1/releases?project=alpha"),
  read("/api/v1/releases/[release]", "/api/v1/releases/1.0.0?project=alpha"),
  row("PATCH /api/v1/issues/[id]", MEMBER(200), (as) => as.send(`/api/v1/issues/${ALPHA_ISSUE}`, "PATCH", { triage: { state: "open", mode: "open" } })),
  row("POST /api/v1/issues/[id]/notes", MEMBER(201), (as) => as.send(`/api/v1/issues/${ALPHA_ISSUE}/notes`, "POST", { text: "looking" })),
  row("POST /api/v1/alerts/receivers", ADMIN(201), (as) => as.send("/api/v1/alerts/receivers", "POST", { project: "alpha", name: unique("hook"), url: "https://hooks.example/y" })),
  row("DELETE /api/v1/alerts/receivers/[id]", ADMIN(204), async (as) => as.send(`/api/v1/alerts/receivers/${await fresh.receiver()}`, "DELETE")),
  row("PATCH /api/v1/alerts/receivers/[id]", ADMIN(200), async (as) => as.send(`/api/v1/alerts/receivers/${await fresh.receiver()}`, "PATCH", { name: unique("renamed") })),
  // The test notification is tried (and fails: no network here); the answer says how it went.
  row("POST /api/v1/alerts/receivers/[id]/test", ADMIN(200), async (as) => as.send(`/api/v1/alerts/receivers/${await fresh.receiver()}/test`, "POST")),
  read("/api/v1/alerts/rules", "/api/v1/alerts/rules?project=alpha"),
  // A read whose query is a JSON document: members and up, as the rules form is theirs to try.
  row("POST /api/v1/alerts/rules/preview", MEMBER(200), (as) => as.send("/api/v1/alerts/rules/preview", "POST", { project: "alpha", params: { kind: "new_code" } })),
  row("POST /api/v1/alerts/rules", ADMIN(201), (as) => as.send("/api/v1/alerts/rules", "POST", { project: "alpha", name: unique("rule"), params: { kind: "new_code" } })),
  row("PATCH /api/v1/alerts/rules/[id]", ADMIN(200), async (as) => as.send(`/api/v1/alerts/rules/${await ruleId()}`, "PATCH", { name: unique("renamed") })),
  read("/api/v1/slos", "/api/v1/slos?project=alpha"),
  row("GET /api/v1/slos/detail", READ, async (as) => as.send(`/api/v1/slos/detail?project=alpha&id=${await fresh.slo()}`)),
  row("POST /api/v1/slos", ADMIN(201), (as) => as.send("/api/v1/slos", "POST", { project: "alpha", ...SLO, name: unique("slo") })),
  row("PATCH /api/v1/slos/[id]", ADMIN(200), async (as) => as.send(`/api/v1/slos/${await fresh.slo()}`, "PATCH", { name: unique("renamed") })),
  row("DELETE /api/v1/slos/[id]", ADMIN(204), async (as) => as.send(`/api/v1/slos/${await fresh.slo()}`, "DELETE")),
  read("/api/v1/classification/rules", "/api/v1/classification/rules?project=alpha"),
  read("/api/v1/classification/groups", "/api/v1/classification/groups?project=alpha"),
  read("/api/v1/classification/progress", "/api/v1/classification/progress?project=alpha"),
  read("/api/v1/classification/preview", "/api/v1/classification/preview?project=alpha&tool=book&code=seat_taken"),
  row("POST /api/v1/classification/rules", ADMIN(201), (as) => as.send("/api/v1/classification/rules", "POST", { project: "alpha", ...CLASSIFICATION_RULE })),
  row("PUT /api/v1/classification/rules/[id]", ADMIN(200), async (as) => as.send(`/api/v1/classification/rules/${await classificationRule()}`, "PUT", { project: "alpha", ...CLASSIFICATION_RULE })),
  row("DELETE /api/v1/classification/rules/[id]", ADMIN(204), async (as) => as.send(`/api/v1/classification/rules/${await classificationRule()}?project=alpha`, "DELETE")),
  row("POST /api/v1/classification/rules/order", ADMIN(200), async (as) =>
    as.send("/api/v1/classification/rules/order", "POST", { project: "alpha", ids: (await listClassificationRules(server.store, "alpha")).map((r) => r.id).reverse() }),
  ),
  row("POST /api/v1/classification/builtin", ADMIN(200), (as) => as.send("/api/v1/classification/builtin", "POST", { project: "alpha", enabled: true })),
  row("DELETE /api/v1/alerts/rules/[id]", ADMIN(204), async (as) => as.send(`/api/v1/alerts/rules/${await fresh.rule()}`, "DELETE")),
  row("GET /api/v1/auth/invitations/[token]", all(200), async (as) => as.send(`/api/v1/auth/invitations/${(await fresh.invitation()).token}`)),
  // Users join gamma (not a project any other row reads); the others create an account from the link.
  row("POST /api/v1/auth/invitations/[token]", { ...all(200), anonymous: 201, adminSecret: 201 }, async (as) =>
    as.send(`/api/v1/auth/invitations/${(await fresh.invitation("gamma")).token}`, "POST", account()),
  ),
  row("GET /api/v1/auth/me", SIGNED_IN(200), (as) => as.send("/api/v1/auth/me")),
  // Single sign-on is not configured on this server: its endpoints say so to everyone.
  row("GET /api/v1/auth/oidc/callback", all(404), (as) => as.send("/api/v1/auth/oidc/callback?code=x&state=y")),
  row("GET /api/v1/auth/oidc/start", all(404), (as) => as.send("/api/v1/auth/oidc/start?next=%2F")),
  row("GET /api/v1/auth/providers", all(200), (as) => as.send("/api/v1/auth/providers")),
  row("POST /api/v1/auth/setup", all(201), async (as) => as.send("/api/v1/auth/setup", "POST", { token: await fresh.setupToken(), ...account() })),
  row("POST /api/v1/auth/sign-in", all(200), (as) => as.send("/api/v1/auth/sign-in", "POST", { email: "signer@example.com", password: PASSWORD })),
  row("POST /api/v1/auth/sign-out", all(204), async (as) => (await as.fresh()).send("/api/v1/auth/sign-out", "POST")),
  row("POST /api/v1/auth/sign-out-everywhere", { ...all(200), anonymous: 401, adminSecret: 403 }, async (as) => {
    const res = await (await as.fresh()).send("/api/v1/auth/sign-out-everywhere", "POST");
    // It ended the caller's other sessions too: the matrix's own one comes back.
    const user = users.get(as.name);
    if (user) sessions.set(as.name, await signIn(server.url, user.email));
    return res;
  }),
  read("/api/v1/codes", "/api/v1/codes?project=alpha"),
  read("/api/v1/codes/contract", "/api/v1/codes/contract?project=alpha&release=1.0.0"),
  read("/api/v1/codes/detail", "/api/v1/codes/detail?project=alpha&code=alpha_code"),
  read("/api/v1/conformance", "/api/v1/conformance?project=alpha"),
  read("/api/v1/drift", "/api/v1/drift?project=alpha"),
  read("/api/v1/drift/codes/[code]/history", "/api/v1/drift/codes/alpha_code/history?project=alpha"),
  read("/api/v1/drift/summary", "/api/v1/drift/summary?project=alpha"),
  read("/api/v1/gate", "/api/v1/gate?project=alpha&release=1.0.0"),
  row("POST /api/v1/gate", READ, (as) => as.send("/api/v1/gate", "POST", { project: "alpha", release: "1.0.0" })),
  // Ingest takes project keys only: neither a session nor the admin secret is one.
  row("POST /api/v1/ingest", all(401), (as) => as.send("/api/v1/ingest", "POST", { records: [] })),
  row("POST /api/v1/ingest/adk/published-events", all(401), (as) => as.send("/api/v1/ingest/adk/published-events", "POST", { events: [] })),
  row("POST /api/v1/ingest/adk/run-events", all(401), (as) => as.send("/api/v1/ingest/adk/run-events", "POST", { events: [] })),
  row("POST /api/v1/ingest/adk/spans", all(401), (as) => as.send("/api/v1/ingest/adk/spans", "POST", { spans: [] })),
  read("/api/v1/overview", "/api/v1/overview?project=alpha"),
  row("GET /api/v1/projects", SIGNED_IN(200), (as) => as.send("/api/v1/projects")),
  // Only an instance owner creates projects; nobody else's role in some project counts.
  row("POST /api/v1/projects", { ...all(403), instanceOwner: 201, adminSecret: 201, anonymous: 401 }, (as) =>
    as.send("/api/v1/projects", "POST", { id: unique("p").toLowerCase(), name: "Made by the matrix" }),
  ),
  read("/api/v1/projects/[project]", "/api/v1/projects/alpha"),
  // Renaming, archiving and restoring belong to the project's owners.
  row("PATCH /api/v1/projects/[project]", { ...ADMIN(200), admin: 403 }, (as) => as.send("/api/v1/projects/alpha", "PATCH", { name: unique("Alpha") })),
  row("GET /api/v1/projects/[project]/audit", ADMIN(200), (as) => as.send("/api/v1/projects/alpha/audit")),
  row("GET /api/v1/projects/[project]/keys", ADMIN(200), (as) => as.send("/api/v1/projects/alpha/keys")),
  row("POST /api/v1/projects/[project]/keys", ADMIN(201), (as) => as.send("/api/v1/projects/alpha/keys", "POST", { name: unique("key"), scope: "read" })),
  row("DELETE /api/v1/projects/[project]/keys/[prefix]", ADMIN(204), async (as) => as.send(`/api/v1/projects/alpha/keys/${await fresh.key()}`, "DELETE")),
  read("/api/v1/projects/[project]/experiments", "/api/v1/projects/alpha/experiments"),
  row("POST /api/v1/projects/[project]/experiments", ADMIN(201), (as) => as.send("/api/v1/projects/alpha/experiments", "POST", experimentBody())),
  row("GET /api/v1/projects/[project]/experiments/[id]", READ, async (as) => as.send(`/api/v1/projects/alpha/experiments/${await fresh.experiment()}`)),
  row("PATCH /api/v1/projects/[project]/experiments/[id]", ADMIN(200), async (as) => as.send(`/api/v1/projects/alpha/experiments/${await fresh.experiment()}`, "PATCH", { action: "start" })),
  row("GET /api/v1/projects/[project]/invitations", ADMIN(200), (as) => as.send("/api/v1/projects/alpha/invitations")),
  row("POST /api/v1/projects/[project]/invitations", ADMIN(201), (as) => as.send("/api/v1/projects/alpha/invitations", "POST", { role: "viewer" })),
  row("DELETE /api/v1/projects/[project]/invitations/[id]", ADMIN(204), async (as) => as.send(`/api/v1/projects/alpha/invitations/${(await fresh.invitation()).id}`, "DELETE")),
  row("GET /api/v1/projects/[project]/members", READ, (as) => as.send("/api/v1/projects/alpha/members")),
  row("PATCH /api/v1/projects/[project]/members/[userId]", ADMIN(200), async (as) => as.send(`/api/v1/projects/alpha/members/${await fresh.member()}`, "PATCH", { role: "member" })),
  row("DELETE /api/v1/projects/[project]/members/[userId]", ADMIN(204), async (as) => as.send(`/api/v1/projects/alpha/members/${await fresh.member()}`, "DELETE")),
  read("/api/v1/run-facets", "/api/v1/run-facets?project=alpha"),
  read("/api/v1/runs", "/api/v1/runs?project=alpha"),
  read("/api/v1/runs/[runId]", "/api/v1/runs/run-alpha?project=alpha"),
  read("/api/v1/search", "/api/v1/search?project=alpha&q=lookup"),
  read("/api/v1/search/text", "/api/v1/search/text?project=alpha&q=lookup"),
  read("/api/v1/projects/[project]/trace-link", "/api/v1/projects/alpha/trace-link"),
  row("PUT /api/v1/projects/[project]/trace-link", ADMIN(200), (as) => as.send("/api/v1/projects/alpha/trace-link", "PUT", { preset: "jaeger", baseUrl: `https://${unique("jaeger")}.example.com` })),
  row("DELETE /api/v1/projects/[project]/trace-link", ADMIN(200), (as) => as.send("/api/v1/projects/alpha/trace-link", "DELETE")),
  // Column choices belong to a person: anyone signed in keeps their own; the admin secret has none (403) and reads none.
  row("GET /api/v1/column-choices", SIGNED_IN(200), (as) => as.send("/api/v1/column-choices")),
  row("PUT /api/v1/column-choices/[table]", { ...SIGNED_IN(200), adminSecret: 403 }, (as) => as.send("/api/v1/column-choices/runs", "PUT", { columns: { agent: "shown" } })),
  // Saved views belong to a person: the admin secret has none (403) and sees none.
  read("/api/v1/saved-views", "/api/v1/saved-views?project=alpha&page=%2Fruns"),
  row("POST /api/v1/saved-views", { ...MEMBER(201), viewer: 201, adminSecret: 403 }, (as) =>
    as.send("/api/v1/saved-views", "POST", { project: "alpha", page: "/runs", name: unique("view"), params: "state=failed" }),
  ),
  // A shared view: its owner (the member) or an admin changes it; a viewer may not.
  row("PATCH /api/v1/saved-views/[id]", { ...ADMIN(200), member: 200, adminSecret: 403 }, async (as) => as.send(`/api/v1/saved-views/${await fresh.sharedView()}`, "PATCH", { name: unique("renamed") })),
  row("DELETE /api/v1/saved-views/[id]", { ...ADMIN(204), member: 204, adminSecret: 403 }, async (as) => as.send(`/api/v1/saved-views/${await fresh.sharedView()}`, "DELETE")),
  read("/api/v1/setup", "/api/v1/setup?project=alpha"),
  read("/api/v1/told", "/api/v1/told?project=alpha&code=alpha_code"),
  // The runtime's wording set: a read key reads it too (test/api/experiments.test.ts).
  read("/api/v1/wordings", "/api/v1/wordings?project=alpha"),
  read("/api/v1/tools", "/api/v1/tools?project=alpha"),
  read("/api/v1/tools/detail", "/api/v1/tools/detail?project=alpha&tool=lookup-alpha"),
  // OTLP paths skip the proxy like ingest: an exporter that also sends logs learns where traces go.
  row("GET /v1/[...path]", all(404), (as) => as.send("/v1/logs")),
  row("POST /v1/traces", all(401), (as) => as.send("/v1/traces", "POST", { resourceSpans: [] })),
  // Langfuse's OTLP path: only an ingest key (Bearer, x-faultline-key or the Basic password) ingests.
  row("POST /api/public/otel/v1/traces", all(401), (as) => as.send("/api/public/otel/v1/traces", "POST", { resourceSpans: [] })),
];

/** Second ways to call a route: muting is a member's right, an export is a read. */
const EXTRA_ROWS: Row[] = [
  row("PATCH /api/v1/alerts/rules/[id] (mute only)", MEMBER(200), async (as) => as.send(`/api/v1/alerts/rules/${await ruleId()}`, "PATCH", { muted: true })),
  row("GET /api/v1/tools (CSV export)", READ, (as) => as.send("/api/v1/tools?project=alpha&format=csv")),
];

const PAGES: Row[] = [
  row("GET /", PAGE, (as) => as.send("/?project=alpha")),
  row("GET /issues", PAGE, (as) => as.send("/issues?project=alpha")),
  row("GET /releases", PAGE, (as) => as.send("/releases?project=alpha")),
  row("GET /releases/[release]", PAGE, (as) => as.send("/releases/1.0.0?project=alpha")),
  row("GET /alerts", PAGE, (as) => as.send("/alerts?project=alpha")),
  row("GET /alerts/history", PAGE, (as) => as.send("/alerts/history?project=alpha")),
  row("GET /slos", PAGE, (as) => as.send("/slos?project=alpha")),
  row("GET /codes", PAGE, (as) => as.send("/codes?project=alpha")),
  row("GET /codes/[code]", PAGE, (as) => as.send("/codes/alpha_code?project=alpha")),
  row("GET /conformance", PAGE, (as) => as.send("/conformance?project=alpha")),
  row("GET /experiments", PAGE, (as) => as.send("/experiments?project=alpha")),
  row("GET /drift", PAGE, (as) => as.send("/drift?project=alpha")),
  row("GET /invite/[token]", all(200), async (as) => as.send(`/invite/${(await fresh.invitation()).token}`)),
  row("GET /runs", PAGE, (as) => as.send("/runs?project=alpha")),
  row("GET /search", PAGE, (as) => as.send("/search?project=alpha&q=lookup")),
  row("GET /runs/[runId]", PAGE, (as) => as.send("/runs/run-alpha?project=alpha")),
  row("GET /settings", { ...all(200), anonymous: 307 }, (as) => as.send("/settings")),
  row("GET /settings/projects", { ...all(200), anonymous: 307 }, (as) => as.send("/settings/projects")),
  row("GET /settings/projects/[project]", PAGE, (as) => as.send("/settings/projects/alpha")),
  // Below admin the keys and audit pages answer a "needs admin" panel, not the data (their APIs answer 403).
  row("GET /settings/projects/[project]/classification", PAGE, (as) => as.send("/settings/projects/alpha/classification")),
  row("GET /settings/projects/[project]/audit", PAGE, (as) => as.send("/settings/projects/alpha/audit")),
  row("GET /settings/projects/[project]/keys", PAGE, (as) => as.send("/settings/projects/alpha/keys")),
  row("GET /settings/projects/[project]/members", PAGE, (as) => as.send("/settings/projects/alpha/members")),
  row("GET /setup", all(200), async (as) => as.send(`/setup?token=${await fresh.setupToken()}`)),
  // Whoever is signed in already goes on to `next`; anonymous visitors get the form.
  row("GET /sign-in", { ...all(307), anonymous: 200 }, (as) => as.send("/sign-in?next=%2Ftools")),
  // What every page shows while the database is out of reach (proxy.ts rewrites to it): no data, no caller needed.
  row("GET /storage-unavailable", all(200), (as) => as.send("/storage-unavailable")),
  row("GET /tools", PAGE, (as) => as.send("/tools?project=alpha")),
  row("GET /tools/[tool]", PAGE, (as) => as.send("/tools/lookup-alpha?project=alpha")),
];

// ---- what exists on disk --------------------------------------------------------------------------

const APP = path.join(process.cwd(), "app");
const filesNamed = (name: string) =>
  (readdirSync(APP, { recursive: true, encoding: "utf8" }) as string[]).filter((f) => path.basename(f) === name).map((f) => f.split(path.sep).join("/"));
const templateOf = (file: string) => (path.posix.dirname(file) === "." ? "/" : `/${path.posix.dirname(file)}`);

/** Every `METHOD /path` an API route file serves itself (the methods it hands to `otherMethods` answer 405). */
function routesOnDisk(): string[] {
  return filesNamed("route.ts").flatMap((file) => {
    const source = readFileSync(path.join(APP, file), "utf8");
    const served = [...source.matchAll(/export const (GET|HEAD|POST|PUT|DELETE|PATCH|OPTIONS)\s*=/g)].map((m) => m[1]!);
    // A catch-all answers 404 for every method: one row (GET) stands for it.
    if (/=\s*notFoundRoute\(/.test(source)) served.push("GET");
    return served.map((method) => `${method} ${templateOf(file)}`);
  });
}
const pagesOnDisk = () => filesNamed("page.tsx").map((file) => `GET ${templateOf(file)}`);

// ---- the server ---------------------------------------------------------------------------------

beforeAll(async () => {
  server = await startServer({
    dialect: inject("serverDialect"),
    env: { FAULTLINE_ADMIN_SECRET: SECRET },
    seed: async (store) => {
      for (const [id, name] of [["alpha", "Alpha"], ["beta", "Beta"], ["gamma", "Gamma"]]) await createProject(store, id!, name!);
      alphaKey = (await createKey(store, "alpha", "matrix")).key;
      betaKey = (await createKey(store, "beta", "matrix")).key;
    },
  });
  const setup = await fetch(`${server.url}/api/v1/auth/setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: setupLinkOf(server.output()).searchParams.get("token"), email: "io@example.com", name: "Instance Owner", password: PASSWORD }),
  });
  expect(setup.status).toBe(201);
  sessions.set("instanceOwner", sessionOf(setup));
  const roles: [CallerName, string, Record<string, "owner" | "admin" | "member" | "viewer">][] = [
    ["owner", "owner@example.com", { alpha: "owner" }],
    ["admin", "admin@example.com", { alpha: "admin" }],
    ["member", "member@example.com", { alpha: "member" }],
    ["viewer", "viewer@example.com", { alpha: "viewer" }],
    ["other", "other@example.com", { beta: "owner" }],
  ];
  users.set("instanceOwner", { id: "", email: "io@example.com", name: "", instanceOwner: true, createdAt: 0, disabledAt: null });
  for (const [name, email, memberships] of roles) {
    users.set(name, await seedUser(server.store, email, memberships));
    sessions.set(name, await signIn(server.url, email));
  }
  await seedUser(server.store, "signer@example.com");
  await ingest(alphaKey, "alpha");
  await ingest(betaKey, "beta");
  // The contract reads folded drift: let the background fold catch up (a drift read starts it).
  const deadline = Date.now() + 60_000;
  for (const project of ["alpha", "beta"]) {
    while (!((await (await caller("adminSecret").send(`/api/v1/drift/summary?project=${project}`)).json()) as { upToDate: boolean }).upToDate) {
      if (Date.now() > deadline) throw new Error(`the drift of ${project} did not fold within 60 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const statusesOf = async (r: Row): Promise<Statuses> => {
  const out = {} as Statuses;
  for (const name of CALLERS) out[name] = (await r.send(caller(name))).status;
  return out;
};

describe("the access matrix", () => {
  it("lists each caller's own projects only", async () => {
    const ids = async (name: CallerName) => ((await (await caller(name).send("/api/v1/projects")).json()) as { projects: { id: string }[] }).projects.map((p) => p.id);
    expect(await ids("instanceOwner")).toEqual(["alpha", "beta", "default", "gamma"]);
    expect(await ids("adminSecret")).toEqual(["alpha", "beta", "default", "gamma"]);
    expect(await ids("viewer")).toEqual(["alpha"]);
    expect(await ids("other")).toEqual(["beta"]);
  });

  it("has a row for every route method and every page on disk, and none for anything else", () => {
    const onDisk = [...routesOnDisk(), ...pagesOnDisk()].sort();
    const rows = [...ROUTES, ...PAGES].map((r) => r.route).sort();
    expect(rows).toEqual(onDisk);
  });

  it.each([...ROUTES, ...EXTRA_ROWS].map((r) => [r.route, r] as const))("%s", async (_name, r) => {
    expect(await statusesOf(r)).toEqual(r.expect);
  });

  it.each(PAGES.map((r) => [r.route, r] as const))("page %s", async (_name, r) => {
    expect(await statusesOf(r)).toEqual(r.expect);
  });
});

describe("cross-project isolation", () => {
  // alpha's owner (a project owner, not an instance owner) names beta, or beta's rows.
  const asOwner = () => caller("owner");
  const notFound = async (res: Response, message: string) => expect([res.status, await res.json()]).toEqual([404, { error: { code: "not_found", message } }]);

  it.each([
    "/api/v1/overview", "/api/v1/tools", "/api/v1/tools?format=csv", "/api/v1/tools/detail?tool=lookup-beta", "/api/v1/codes", "/api/v1/codes/detail?code=beta_code",
    "/api/v1/runs", "/api/v1/runs/run-beta", "/api/v1/run-facets", "/api/v1/search?q=lookup", "/api/v1/conformance", "/api/v1/drift", "/api/v1/drift/summary",
    "/api/v1/drift/codes/beta_code/history", "/api/v1/alerts/rules", "/api/v1/alerts/history", "/api/v1/alerts/receivers", "/api/v1/setup",
    "/api/v1/gate?release=1.0.0", "/api/v1/codes/contract?release=1.0.0", "/api/v1/told?code=beta_code",
  ])("?project=beta on %s is 404, worded as for a project that does not exist", async (p) => {
    const url = `${p}${p.includes("?") ? "&" : "?"}project=beta`;
    await notFound(await asOwner().send(url), "project beta not found");
    await notFound(await asOwner().send(url.replace("project=beta", "project=nonexistent")), "project nonexistent not found");
  });

  it("finds no beta run, rule, receiver, invitation or member through alpha's paths", async () => {
    await notFound(await asOwner().send("/api/v1/runs/run-beta?project=alpha"), "no run with this id in this project");
    const rule = await fresh.rule("beta");
    await notFound(await asOwner().send(`/api/v1/alerts/rules/${rule}`, "PATCH", { muted: true }), `no alert rule ${rule}`);
    await notFound(await asOwner().send(`/api/v1/alerts/rules/${rule}`, "DELETE"), `no alert rule ${rule}`);
    const receiver = await fresh.receiver("beta");
    await notFound(await asOwner().send(`/api/v1/alerts/receivers/${receiver}`, "DELETE"), `no receiver ${receiver}`);
    const invitation = await fresh.invitation("beta");
    await notFound(await asOwner().send(`/api/v1/projects/alpha/invitations/${invitation.id}`, "DELETE"), `no pending invitation ${invitation.id} in project alpha`);
    await notFound(await asOwner().send(`/api/v1/projects/beta/invitations/${invitation.id}`, "DELETE"), "project beta not found");
    const other = users.get("other")!.id;
    await notFound(await asOwner().send(`/api/v1/projects/alpha/members/${other}`, "PATCH", { role: "viewer" }), `no member ${other} in project alpha`);
    await notFound(await asOwner().send(`/api/v1/projects/alpha/members/${other}`, "DELETE"), `no member ${other} in project alpha`);
    await notFound(await asOwner().send(`/api/v1/projects/beta/members/${other}`, "PATCH", { role: "viewer" }), "project beta not found");
    for (const p of ["/api/v1/projects/beta/members", "/api/v1/projects/beta/invitations"]) await notFound(await asOwner().send(p), "project beta not found");
    await notFound(await asOwner().send("/api/v1/projects/beta/invitations", "POST", { role: "viewer" }), "project beta not found");
    await notFound(await asOwner().send("/api/v1/alerts/rules", "POST", { project: "beta", name: "x", params: { kind: "new_code" } }), "project beta not found");
    await notFound(await asOwner().send("/api/v1/alerts/receivers", "POST", { project: "beta", name: "x", url: "https://hooks.example/z" }), "project beta not found");
    await notFound(await asOwner().send("/api/v1/gate", "POST", { project: "beta", release: "1.0.0" }), "project beta not found");
    const betaKeyPrefix = await fresh.key("beta");
    await notFound(await asOwner().send(`/api/v1/projects/alpha/keys/${betaKeyPrefix}`, "DELETE"), `no key ${betaKeyPrefix} in project alpha`);
    for (const p of ["/api/v1/projects/beta", "/api/v1/projects/beta/keys", "/api/v1/projects/beta/audit"]) await notFound(await asOwner().send(p), "project beta not found");
    await notFound(await asOwner().send("/api/v1/projects/beta", "PATCH", { name: "Mine now" }), "project beta not found");
    await notFound(await asOwner().send("/api/v1/projects/beta/keys", "POST", { name: "mine", scope: "ingest" }), "project beta not found");
    await notFound(await asOwner().send(`/api/v1/projects/beta/keys/${betaKeyPrefix}`, "DELETE"), "project beta not found");
    // Nothing of beta changed.
    expect((await listAlertRules(server.store, "beta")).some((r) => r.id === rule && !r.muted)).toBe(true);
  });

  it.each([
    "/?project=beta", "/tools?project=beta", "/tools/lookup-beta?project=beta", "/codes/beta_code?project=beta", "/runs?project=beta", "/runs/run-beta?project=beta",
    "/runs/run-beta?project=alpha", "/drift?project=beta", "/conformance?project=beta", "/alerts?project=beta", "/alerts/history?project=beta", "/settings/projects/beta/members",
    "/settings/projects/beta", "/settings/projects/beta/keys", "/settings/projects/beta/audit",
  ])("page %s is the not-found page", async (p) => {
    const res = await asOwner().send(p);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain(p === "/runs/run-beta?project=alpha" ? "There is no run “run-beta” in project “alpha”." : "There is no project “beta”.");
  });
});
