// Projects through the API on a real server: create (instance owners), read (members), rename,
// archive and restore (owners), with exact statuses per role, CSRF, and audit entries.
import { describe, expect, it } from "vitest";
import { auditRows, ingestOne, json, useTeam } from "./team-fixture";

const team = useTeam();
const url = (path: string) => `${team().server.url}${path}`;

describe("POST /api/v1/projects", () => {
  it("lets only an instance owner create a project, who becomes its owner; the default alert rules come with it", async () => {
    const t = team();
    const attempt = (headers: Record<string, string>) => fetch(url("/api/v1/projects"), json("POST", headers, { id: "initech", name: "Initech" }));
    // Nobody below instance owner creates it; the attempts change nothing.
    expect(await t.statuses(attempt)).toEqual({ owner: 403, admin: 403, member: 403, viewer: 403, outsider: 403, anonymous: 401 });
    const before = Date.now();
    const res = await attempt(t.headersOf("instanceOwner"));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { createdAt: number };
    expect(body).toEqual({ id: "initech", name: "Initech", createdAt: body.createdAt, archivedAt: null, keys: { active: 0, revoked: 0 } });
    expect(body.createdAt).toBeGreaterThanOrEqual(before);
    const { store } = t.server;
    expect(await store.all("SELECT user_id AS \"userId\", role FROM memberships WHERE project_id = ?", ["initech"])).toEqual([{ userId: t.instanceOwner.userId, role: "owner" }]);
    const rules = (p: string) => store.all<{ name: string }>("SELECT name FROM alert_rules WHERE project_id = ? ORDER BY id", [p]);
    expect((await rules("initech")).map((r) => r.name)).toEqual((await rules("default")).map((r) => r.name));
    expect((await rules("initech")).length).toBeGreaterThan(0);
    expect(await auditRows(t, "initech")).toEqual([
      { action: "project.created", actorUserId: t.instanceOwner.userId, actorLabel: "root@faultline.test", target: "initech", detail: { name: "Initech" }, address: "127.0.0.1" },
    ]);
    // The project switcher's list carries it, not archived.
    const list = (await (await fetch(url("/api/v1/projects"), { headers: t.headersOf("instanceOwner") })).json()) as { projects: { id: string }[] };
    expect(list.projects.find((p) => p.id === "initech")).toEqual({ id: "initech", name: "Initech", archivedAt: null });
  });

  it("answers 409 for a taken id and 400 for a bad id or name, naming the field", async () => {
    const t = team();
    const post = (body: unknown) => fetch(url("/api/v1/projects"), json("POST", t.headersOf("instanceOwner"), body));
    const taken = await post({ id: "acme", name: "Another Acme" });
    expect([taken.status, await taken.json()]).toEqual([409, { error: { code: "conflict", message: "a project with the id acme already exists" } }]);
    expect((await t.server.store.get<{ name: string }>("SELECT name FROM projects WHERE id = ?", ["acme"]))?.name).toBe("Acme agents");

    const badId = await post({ id: "Bad Id", name: "x" });
    expect(badId.status).toBe(400);
    const badIdBody = (await badId.json()) as { error: { code: string; issues: { path: string; message: string }[] } };
    expect(badIdBody.error.code).toBe("bad_request");
    expect(badIdBody.error.issues).toEqual([{ path: "id", message: "use 1–64 lowercase letters, digits and hyphens, not starting or ending with a hyphen" }]);
    const noName = await post({ id: "nameless", name: "   " });
    expect(noName.status).toBe(400);
    expect(((await noName.json()) as { error: { issues: { path: string }[] } }).error.issues.map((i) => i.path)).toEqual(["name"]);
    expect(await t.server.store.get("SELECT id FROM projects WHERE id IN ('nameless', 'bad id')")).toBeUndefined();
  });

  it("refuses a session's write without its CSRF header, or with another session's, and a cross-site one", async () => {
    const t = team();
    const noCsrf = await fetch(url("/api/v1/projects"), json("POST", t.headersOf("instanceOwner", { csrf: false }), { id: "no-csrf", name: "x" }));
    expect([noCsrf.status, await noCsrf.json()]).toEqual([403, { error: { code: "forbidden", message: "missing x-faultline-csrf header: a signed-in browser sends the value of its faultline_csrf cookie with every change" } }]);
    const wrong = { ...t.headersOf("instanceOwner"), "x-faultline-csrf": t.accounts.owner.csrfToken };
    expect((await fetch(url("/api/v1/projects"), json("POST", wrong, { id: "no-csrf", name: "x" }))).status).toBe(403);
    const crossSite = { ...t.headersOf("instanceOwner"), origin: "https://evil.example" };
    const cross = await fetch(url("/api/v1/projects"), json("POST", crossSite, { id: "no-csrf", name: "x" }));
    expect([cross.status, await cross.json()]).toEqual([403, { error: { code: "forbidden", message: "requests from https://evil.example may not change anything here" } }]);
    expect(await t.server.store.get("SELECT id FROM projects WHERE id = 'no-csrf'")).toBeUndefined();
  });
});

describe("GET /api/v1/projects/:project", () => {
  it("shows every member the project with its key counts, and strangers a 404", async () => {
    const t = team();
    const read = (headers: Record<string, string>) => fetch(url(`/api/v1/projects/${t.project}`), { headers });
    expect(await t.statuses(read)).toEqual({ owner: 200, admin: 200, member: 200, viewer: 200, outsider: 404, anonymous: 401 });
    const body = (await (await read(t.headersOf("viewer"))).json()) as { createdAt: number };
    const created = await t.server.store.get<{ createdAt: number }>(`SELECT created_at AS "createdAt" FROM projects WHERE id = 'acme'`);
    expect(body).toEqual({ id: "acme", name: "Acme agents", createdAt: Number(created?.createdAt), archivedAt: null, keys: { active: 0, revoked: 0 } });
    const outsider = await read(t.headersOf("outsider"));
    expect(await outsider.json()).toEqual({ error: { code: "not_found", message: "project acme not found" } });
    const missing = await fetch(url("/api/v1/projects/nope"), { headers: t.headersOf("instanceOwner") });
    expect([missing.status, await missing.json()]).toEqual([404, { error: { code: "not_found", message: "project nope not found" } }]);
    const anonymous = await read({});
    expect(await anonymous.json()).toEqual({ error: { code: "unauthorized", message: "sign in first" } });
  });

  it("counts active and revoked keys", async () => {
    const t = team();
    const admin = t.headersOf("admin");
    const before = (await (await fetch(url(`/api/v1/projects/${t.project}`), { headers: admin })).json()) as { keys: { active: number; revoked: number } };
    const a = (await (await fetch(url(`/api/v1/projects/${t.project}/keys`), json("POST", admin, { name: "a", scope: "ingest" }))).json()) as { prefix: string };
    await fetch(url(`/api/v1/projects/${t.project}/keys`), json("POST", admin, { name: "b", scope: "read" }));
    expect((await fetch(url(`/api/v1/projects/${t.project}/keys/${a.prefix}`), json("DELETE", admin))).status).toBe(204);
    const after = (await (await fetch(url(`/api/v1/projects/${t.project}`), { headers: admin })).json()) as { keys: { active: number; revoked: number } };
    expect(after.keys).toEqual({ active: before.keys.active + 1, revoked: before.keys.revoked + 1 });
  });
});

describe("PATCH /api/v1/projects/:project", () => {
  it("lets only the owner (or an instance owner) rename, and records the old and new name", async () => {
    const t = team();
    const rename = (name: string) => (headers: Record<string, string>) => fetch(url(`/api/v1/projects/${t.project}`), json("PATCH", headers, { name }));
    expect(await t.statuses(rename("Acme (renamed by someone)"))).toEqual({ owner: 200, admin: 403, member: 403, viewer: 403, outsider: 404, anonymous: 401 });
    const admin = await rename("x")(t.headersOf("admin"));
    expect(await admin.json()).toEqual({ error: { code: "forbidden", message: "this needs the owner role or a stronger one in project acme; yours is admin" } });
    const res = await rename("Acme agents, renamed")(t.headersOf("owner"));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { name: string }).name).toBe("Acme agents, renamed");
    // The instance owner is owner of every project without a membership.
    expect((await rename("Acme agents")(t.headersOf("instanceOwner"))).status).toBe(200);
    const renames = await auditRows(t, t.project, "project.renamed");
    expect(renames).toEqual([
      { action: "project.renamed", actorUserId: t.accounts.owner.userId, actorLabel: "owner@acme.test", target: "acme", detail: { from: "Acme agents", to: "Acme (renamed by someone)" }, address: "127.0.0.1" },
      { action: "project.renamed", actorUserId: t.accounts.owner.userId, actorLabel: "owner@acme.test", target: "acme", detail: { from: "Acme (renamed by someone)", to: "Acme agents, renamed" }, address: "127.0.0.1" },
      { action: "project.renamed", actorUserId: t.instanceOwner.userId, actorLabel: "root@faultline.test", target: "acme", detail: { from: "Acme agents, renamed", to: "Acme agents" }, address: "127.0.0.1" },
    ]);
    // The same name again changes nothing and records nothing.
    expect((await rename("Acme agents")(t.headersOf("owner"))).status).toBe(200);
    expect(await auditRows(t, t.project, "project.renamed")).toHaveLength(3);
  });

  it("answers 400 for an empty change or a bad name, and needs the CSRF header", async () => {
    const t = team();
    const empty = await fetch(url(`/api/v1/projects/${t.project}`), json("PATCH", t.headersOf("owner"), {}));
    expect([empty.status, ((await empty.json()) as { error: { message: string } }).error.message]).toEqual([400, "invalid body: (record): nothing to change: give name, archived or both"]);
    const badType = await fetch(url(`/api/v1/projects/${t.project}`), json("PATCH", t.headersOf("owner"), { archived: "yes" }));
    expect(badType.status).toBe(400);
    const noCsrf = await fetch(url(`/api/v1/projects/${t.project}`), json("PATCH", t.headersOf("owner", { csrf: false }), { name: "x" }));
    expect(noCsrf.status).toBe(403);
  });

  it("archives: ingest with the project's keys answers 403, its data stays readable; restore opens ingest again", async () => {
    const t = team();
    const { key } = (await (await fetch(url(`/api/v1/projects/${t.project}/keys`), json("POST", t.headersOf("admin"), { name: "archive test", scope: "ingest" }))).json()) as { key: string };
    expect((await ingestOne(t.server.url, key, "before_archive")).status).toBe(200);
    const patch = (archived: boolean) => (headers: Record<string, string>) => fetch(url(`/api/v1/projects/${t.project}`), json("PATCH", headers, { archived }));
    expect(await t.statuses(patch(true))).toEqual({ owner: 200, admin: 403, member: 403, viewer: 403, outsider: 404, anonymous: 401 });
    const detail = (await (await fetch(url(`/api/v1/projects/${t.project}`), { headers: t.headersOf("viewer") })).json()) as { archivedAt: number | null };
    expect(detail.archivedAt).toEqual(expect.any(Number));

    const refused = await ingestOne(t.server.url, key, "after_archive");
    expect([refused.status, await refused.json()]).toEqual([
      403,
      { error: { code: "forbidden", message: "project acme is archived and takes no new data; a project owner can restore it under Settings → Projects" } },
    ]);
    // Another project's keys are not touched.
    expect((await ingestOne(t.server.url, t.otherKey)).status).toBe(200);
    // Readable: what was sent before archiving is there; what came after is not.
    const tools = (await (await fetch(url(`/api/v1/tools?project=${t.project}&range=1h`), { headers: t.headersOf("viewer") })).json()) as { tools: { tool: string }[] };
    expect(tools.tools.map((r) => r.tool)).toEqual(["before_archive"]);
    const list = (await (await fetch(url("/api/v1/projects"), { headers: t.headersOf("viewer") })).json()) as { projects: { id: string; archivedAt: number | null }[] };
    expect(list.projects.find((p) => p.id === t.project)?.archivedAt).toBe(detail.archivedAt);

    // Archiving again changes nothing; restoring opens ingest.
    expect((await patch(true)(t.headersOf("owner"))).status).toBe(200);
    const restored = await patch(false)(t.headersOf("owner"));
    expect(((await restored.json()) as { archivedAt: number | null }).archivedAt).toBeNull();
    expect((await ingestOne(t.server.url, key, "after_restore")).status).toBe(200);
    expect((await auditRows(t, t.project)).filter((r) => r.action === "project.archived" || r.action === "project.restored")).toEqual([
      { action: "project.archived", actorUserId: t.accounts.owner.userId, actorLabel: "owner@acme.test", target: "acme", detail: null, address: "127.0.0.1" },
      { action: "project.restored", actorUserId: t.accounts.owner.userId, actorLabel: "owner@acme.test", target: "acme", detail: null, address: "127.0.0.1" },
    ]);
  });
});
