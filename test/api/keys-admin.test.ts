// Keys through the API on a real server: list, create (shown once) and revoke, by role; a created
// key ingests, a revoked one gets 401, a read key cannot ingest, an archived project's key gets 403.
import { describe, expect, it } from "vitest";
import { auditRows, ingestOne, json, useTeam } from "./team-fixture";

const team = useTeam();
const url = (path: string) => `${team().server.url}${path}`;
const keysUrl = () => url(`/api/v1/projects/${team().project}/keys`);

interface Created {
  name: string;
  prefix: string;
  scope: string;
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
  key: string;
}

async function create(name: string, scope: "ingest" | "read" = "ingest", who: "admin" | "owner" = "admin"): Promise<Created> {
  const res = await fetch(keysUrl(), json("POST", team().headersOf(who), { name, scope }));
  expect(res.status).toBe(201);
  return (await res.json()) as Created;
}

const list = async () => ((await (await fetch(keysUrl(), { headers: team().headersOf("admin") })).json()) as { keys: Omit<Created, "key">[] }).keys;

describe("POST /api/v1/projects/:project/keys", () => {
  it("lets admins and owners create a key, answered once with the clear key, and records it", async () => {
    const t = team();
    const attempt = (headers: Record<string, string>) => fetch(keysUrl(), json("POST", headers, { name: "by role", scope: "ingest" }));
    const before = Date.now();
    expect(await t.statuses(attempt)).toEqual({ owner: 201, admin: 201, member: 403, viewer: 403, outsider: 404, anonymous: 401 });
    const res = await attempt(t.headersOf("admin"));
    expect(res.headers.get("cache-control")).toBe("no-store");
    const created = (await res.json()) as Created;
    expect(created).toEqual({ name: "by role", prefix: created.key.slice(0, 12), scope: "ingest", createdAt: created.createdAt, lastUsedAt: null, revokedAt: null, key: created.key });
    expect(created.key).toMatch(/^flk_[0-9A-Za-z]{8}_[0-9A-Za-z]{32}$/);
    expect(created.createdAt).toBeGreaterThanOrEqual(before);
    // Listed without its secret part, ever.
    const listed = await list();
    expect(listed.find((k) => k.prefix === created.prefix)).toEqual({ name: "by role", prefix: created.prefix, scope: "ingest", createdAt: created.createdAt, lastUsedAt: null, revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(created.key.slice(13));
    const audit = await auditRows(t, t.project, "key.created");
    expect(audit.map((a) => a.actorLabel)).toEqual(["owner@acme.test", "admin@acme.test", "admin@acme.test"]);
    expect(audit[2]).toEqual({ action: "key.created", actorUserId: t.accounts.admin.userId, actorLabel: "admin@acme.test", target: created.prefix, detail: { name: "by role", scope: "ingest" }, address: "127.0.0.1" });
    expect(JSON.stringify(audit)).not.toContain(created.key.slice(13));
  });

  it("answers 400 for a missing name or an unknown scope, and 403 without the CSRF header", async () => {
    const t = team();
    const bad = async (body: unknown) => {
      const res = await fetch(keysUrl(), json("POST", t.headersOf("admin"), body));
      return [res.status, ((await res.json()) as { error: { issues?: { path: string }[] } }).error.issues?.map((i) => i.path)];
    };
    expect(await bad({ name: " ", scope: "ingest" })).toEqual([400, ["name"]]);
    expect(await bad({ name: "x", scope: "admin" })).toEqual([400, ["scope"]]);
    const noCsrf = await fetch(keysUrl(), json("POST", t.headersOf("admin", { csrf: false }), { name: "x" }));
    expect([noCsrf.status, await noCsrf.json()]).toEqual([403, { error: { code: "forbidden", message: "missing x-faultline-csrf header: a signed-in browser sends the value of its faultline_csrf cookie with every change" } }]);
  });

  it("makes an ingest key that ingests (and shows when it was last used) and a read key that cannot ingest but reads the gate", async () => {
    const t = team();
    const ingest = await create("agent prod");
    const before = Date.now();
    expect((await ingestOne(t.server.url, ingest.key)).status).toBe(200);
    const used = (await list()).find((k) => k.prefix === ingest.prefix)!;
    expect(used.lastUsedAt).toBeGreaterThanOrEqual(before);
    expect(used.lastUsedAt).toBeLessThanOrEqual(Date.now());

    const read = await create("ci gate", "read");
    expect(read.scope).toBe("read");
    const refused = await ingestOne(t.server.url, read.key);
    expect([refused.status, await refused.json()]).toEqual([403, { error: { code: "forbidden", message: "this is a read key: it cannot ingest; send an ingest key" } }]);
    // The read key reads its project's code contract (the release is unknown: 404, not a refusal).
    const contract = await fetch(url(`/api/v1/codes/contract?project=${t.project}&release=9.9.9`), { headers: { authorization: `Bearer ${read.key}` } });
    expect([contract.status, await contract.json()]).toEqual([404, { error: { code: "not_found", message: "no tool call of acme was recorded in release 9.9.9" } }]);
  });
});

describe("GET /api/v1/projects/:project/keys", () => {
  it("lists keys to admins and owners only, oldest first", async () => {
    const t = team();
    expect(await t.statuses((headers) => fetch(keysUrl(), { headers }))).toEqual({ owner: 200, admin: 200, member: 403, viewer: 403, outsider: 404, anonymous: 401 });
    const viewer = await fetch(keysUrl(), { headers: t.headersOf("viewer") });
    expect(await viewer.json()).toEqual({ error: { code: "forbidden", message: "this needs the admin role or a stronger one in project acme; yours is viewer" } });
    const listed = await list();
    expect(listed.map((k) => k.name)).toEqual(["by role", "by role", "by role", "agent prod", "ci gate"]);
    const stored = await t.server.store.all<{ prefix: string }>("SELECT prefix FROM api_keys WHERE project_id = 'acme' ORDER BY id");
    expect(listed.map((k) => k.prefix)).toEqual(stored.map((k) => k.prefix));
  });
});

describe("DELETE /api/v1/projects/:project/keys/:prefix", () => {
  it("revokes for admins and owners: ingest with the key answers 401 from then on; the revocation is recorded", async () => {
    const t = team();
    const keys = await Promise.all(["r1", "r2", "r3"].map((n) => create(n)));
    const revokeAs = (headers: Record<string, string>, prefix: string) => fetch(`${keysUrl()}/${prefix}`, json("DELETE", headers));
    // Refused callers change nothing: the key still ingests.
    for (const who of ["member", "viewer", "outsider", "anonymous"] as const) {
      expect([who, (await revokeAs(t.headersOf(who), keys[0]!.prefix)).status]).toEqual([who, { member: 403, viewer: 403, outsider: 404, anonymous: 401 }[who]]);
    }
    expect((await ingestOne(t.server.url, keys[0]!.key)).status).toBe(200);
    const noCsrf = await revokeAs(t.headersOf("admin", { csrf: false }), keys[0]!.prefix);
    expect(noCsrf.status).toBe(403);

    const before = Date.now();
    const revoked = await revokeAs(t.headersOf("admin"), keys[0]!.prefix);
    expect([revoked.status, await revoked.text()]).toEqual([204, ""]);
    expect((await revokeAs(t.headersOf("owner"), keys[1]!.prefix)).status).toBe(204);
    const refused = await ingestOne(t.server.url, keys[0]!.key);
    expect([refused.status, await refused.json()]).toEqual([401, { error: { code: "unauthorized", message: "invalid or revoked ingest key" } }]);
    expect((await ingestOne(t.server.url, keys[2]!.key)).status).toBe(200);
    const row = (await list()).find((k) => k.prefix === keys[0]!.prefix)!;
    expect(row.revokedAt).toBeGreaterThanOrEqual(before);

    const again = await revokeAs(t.headersOf("admin"), keys[0]!.prefix);
    expect([again.status, await again.json()]).toEqual([409, { error: { code: "conflict", message: `key ${keys[0]!.prefix} was already revoked at ${new Date(row.revokedAt!).toISOString()}` } }]);
    const revocations = await auditRows(t, t.project, "key.revoked");
    expect(revocations).toEqual([
      { action: "key.revoked", actorUserId: t.accounts.admin.userId, actorLabel: "admin@acme.test", target: keys[0]!.prefix, detail: { name: "r1", scope: "ingest" }, address: "127.0.0.1" },
      { action: "key.revoked", actorUserId: t.accounts.owner.userId, actorLabel: "owner@acme.test", target: keys[1]!.prefix, detail: { name: "r2", scope: "ingest" }, address: "127.0.0.1" },
    ]);
  });

  it("answers 404 for another project's prefix and leaves that key working", async () => {
    const t = team();
    const otherPrefix = t.otherKey.slice(0, 12);
    const res = await fetch(`${keysUrl()}/${otherPrefix}`, json("DELETE", t.headersOf("admin")));
    expect([res.status, await res.json()]).toEqual([404, { error: { code: "not_found", message: `no key ${otherPrefix} in project acme` } }]);
    // Even the instance owner addresses a key through its own project.
    expect((await fetch(`${keysUrl()}/${otherPrefix}`, json("DELETE", t.headersOf("instanceOwner")))).status).toBe(404);
    const unknown = await fetch(`${keysUrl()}/flk_00000000`, json("DELETE", t.headersOf("admin")));
    expect(unknown.status).toBe(404);
    expect((await ingestOne(t.server.url, t.otherKey)).status).toBe(200);
    expect(await auditRows(t, t.other, "key.revoked")).toEqual([]);
  });
});

describe("keys of an archived project", () => {
  it("refuse ingest with 403 and no new key is made until the project is restored", async () => {
    const t = team();
    const key = await create("before archive");
    const archive = (archived: boolean) => fetch(url(`/api/v1/projects/${t.project}`), json("PATCH", t.headersOf("owner"), { archived }));
    expect((await archive(true)).status).toBe(200);
    const refused = await ingestOne(t.server.url, key.key);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      "project acme is archived and takes no new data; a project owner can restore it under Settings → Projects",
    );
    const blocked = await fetch(keysUrl(), json("POST", t.headersOf("admin"), { name: "while archived" }));
    expect([blocked.status, await blocked.json()]).toEqual([409, { error: { code: "conflict", message: "project acme is archived: restore it before creating keys" } }]);
    expect((await list()).some((k) => k.name === "while archived")).toBe(false);
    // Keys can still be listed and revoked while archived.
    expect((await fetch(`${keysUrl()}/${key.prefix}`, json("DELETE", t.headersOf("admin")))).status).toBe(204);
    expect((await archive(false)).status).toBe(200);
    expect((await ingestOne(t.server.url, key.key)).status).toBe(401);
    expect((await create("after restore")).scope).toBe("ingest");
  });
});
