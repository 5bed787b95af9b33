// The audit log API on a real server: admins page through the project's entries and its members'
// sign-ins (failed ones naming a member too), filtered by action or actor; nobody else reads it.
import { beforeAll, describe, expect, it } from "vitest";
import { recordAudit, type AuditRecord } from "@/db/audit/record-audit";
import { json, useTeam } from "./team-fixture";

const team = useTeam();
const T = Date.now() - 3_600_000;
const auditUrl = (query = "") => `${team().server.url}/api/v1/projects/${team().project}/audit${query}`;

interface Answer {
  entries: { id: number; at: number; projectId: string | null; actorUserId: string | null; actorLabel: string; action: string; target: string | null; detail: unknown; address: string | null }[];
  page: { total: number; offset: number; limit: number };
}

async function read(query = "", who: "admin" | "owner" = "admin"): Promise<Answer> {
  const res = await fetch(auditUrl(query), { headers: team().headersOf(who) });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

// What the sign-in work records (project-less entries) and what other projects record, at fixed times.
let seeded: Record<string, Omit<AuditRecord, "at"> & { at: number }>;
beforeAll(async () => {
  const t = team();
  const { member, viewer, admin, outsider } = t.accounts;
  seeded = {
    created: { at: T, projectId: "acme", actorUserId: t.instanceOwner.userId, actorLabel: "root@faultline.test", action: "project.created", target: "acme", detail: { name: "Acme agents" }, address: "10.0.0.1" },
    memberSignIn: { at: T + 1000, projectId: null, actorUserId: member.userId, actorLabel: member.email, action: "auth.sign_in", target: member.email, detail: { method: "password" }, address: "203.0.113.7" },
    viewerGuessed: { at: T + 2000, projectId: null, actorUserId: null, actorLabel: "anonymous", action: "auth.sign_in_failed", target: viewer.email, detail: null, address: "198.51.100.9" },
    adminFailed: { at: T + 2500, projectId: null, actorUserId: admin.userId, actorLabel: admin.email, action: "auth.sign_in_failed", target: null, detail: null, address: "198.51.100.10" },
    // Not shown in acme: a non-member's sign-ins, a member's sign-out, another project's change.
    outsiderSignIn: { at: T + 3000, projectId: null, actorUserId: outsider.userId, actorLabel: outsider.email, action: "auth.sign_in", target: outsider.email, detail: null, address: "192.0.2.1" },
    outsiderGuessed: { at: T + 4000, projectId: null, actorUserId: null, actorLabel: "anonymous", action: "auth.sign_in_failed", target: outsider.email, detail: null, address: "192.0.2.2" },
    memberSignOut: { at: T + 4500, projectId: null, actorUserId: member.userId, actorLabel: member.email, action: "auth.sign_out", target: null, detail: null, address: "203.0.113.7" },
    otherProject: { at: T + 5000, projectId: "globex", actorUserId: outsider.userId, actorLabel: outsider.email, action: "key.created", target: "flk_Globex00", detail: null, address: "192.0.2.1" },
  };
  for (const entry of Object.values(seeded)) await recordAudit(t.server.store, entry);
});

const shown = (key: string) => {
  const { at, projectId, actorUserId, actorLabel, action, target, detail, address } = seeded[key]!;
  return { id: expect.any(Number), at, projectId, actorUserId, actorLabel, action, target: target ?? null, detail: detail ?? null, address: address ?? null };
};

describe("GET /api/v1/projects/:project/audit", () => {
  it("is for admins and owners only", async () => {
    const t = team();
    expect(await t.statuses((headers) => fetch(auditUrl(), { headers }))).toEqual({ owner: 200, admin: 200, member: 403, viewer: 403, outsider: 404, anonymous: 401 });
    const member = await fetch(auditUrl(), { headers: t.headersOf("member") });
    expect(await member.json()).toEqual({ error: { code: "forbidden", message: "this needs the admin role or a stronger one in project acme; yours is member" } });
  });

  it("answers the project's entries and its members' sign-ins, newest first, with who, what, target and address", async () => {
    const answer = await read();
    expect(answer).toEqual({ entries: ["adminFailed", "viewerGuessed", "memberSignIn", "created"].map(shown), page: { total: 4, offset: 0, limit: 100 } });
  });

  it("records the dashboard's own changes with the caller and their address", async () => {
    const t = team();
    const key = (await (await fetch(`${t.server.url}/api/v1/projects/acme/keys`, json("POST", t.headersOf("admin"), { name: "audited", scope: "read" }))).json()) as { prefix: string };
    expect((await fetch(`${t.server.url}/api/v1/projects/acme`, json("PATCH", t.headersOf("owner"), { name: "Acme, audited" }))).status).toBe(200);
    const { entries } = await read("", "owner");
    expect(entries.slice(0, 2).map(({ projectId, actorUserId, actorLabel, action, target, detail, address }) => ({ projectId, actorUserId, actorLabel, action, target, detail, address }))).toEqual([
      { projectId: "acme", actorUserId: t.accounts.owner.userId, actorLabel: "owner@acme.test", action: "project.renamed", target: "acme", detail: { from: "Acme agents", to: "Acme, audited" }, address: "127.0.0.1" },
      { projectId: "acme", actorUserId: t.accounts.admin.userId, actorLabel: "admin@acme.test", action: "key.created", target: key.prefix, detail: { name: "audited", scope: "read" }, address: "127.0.0.1" },
    ]);
    expect(entries[0]!.at).toBeGreaterThanOrEqual(entries[1]!.at);
    expect(entries.slice(2)).toEqual(["adminFailed", "viewerGuessed", "memberSignIn", "created"].map(shown));
  });

  it("filters by action and by actor (case-insensitive), and pages with offset and limit", async () => {
    const failed = await read("?action=auth.sign_in_failed");
    expect(failed).toEqual({ entries: ["adminFailed", "viewerGuessed"].map(shown), page: { total: 2, offset: 0, limit: 100 } });
    const member = await read("?actor=MEMBER@acme.test");
    expect(member.entries).toEqual([shown("memberSignIn")]);
    const admin = await read("?actor=admin@acme.test");
    expect(admin.entries.map((e) => e.action)).toEqual(["key.created", "auth.sign_in_failed"]);
    const both = await read("?actor=admin@acme.test&action=key.created");
    expect(both.page.total).toBe(1);
    // Empty parameters are no filter, as a cleared form sends them.
    expect((await read("?action=&actor=")).page.total).toBe(6);

    const first = await read("?limit=2");
    expect([first.entries.map((e) => e.action), first.page]).toEqual([["project.renamed", "key.created"], { total: 6, offset: 0, limit: 2 }]);
    const last = await read("?limit=2&offset=4");
    expect(last).toEqual({ entries: ["memberSignIn", "created"].map(shown), page: { total: 6, offset: 4, limit: 2 } });
    expect((await read("?offset=10")).entries).toEqual([]);
  });

  it("answers 400 naming a bad parameter", async () => {
    const t = team();
    const bad = async (query: string) => {
      const res = await fetch(auditUrl(query), { headers: t.headersOf("admin") });
      const body = (await res.json()) as { error: { code: string; issues: { path: string }[] } };
      return [res.status, body.error.code, body.error.issues.map((i) => i.path)];
    };
    expect(await bad("?action=key.stolen")).toEqual([400, "bad_request", ["action"]]);
    expect(await bad("?limit=501")).toEqual([400, "bad_request", ["limit"]]);
    expect(await bad("?offset=-1")).toEqual([400, "bad_request", ["offset"]]);
    // A stranger's bad query is still a 404: the role check comes first.
    expect((await fetch(auditUrl("?limit=501"), { headers: t.headersOf("outsider") })).status).toBe(404);
  });
});
