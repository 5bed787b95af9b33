// The projects, keys and audit-log functions behind the settings pages, on both engines with the
// real migrations: each change commits with its audit entry, or not at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateAlerts } from "@/db/alerts/evaluate-alerts";
import type { AuditActor } from "@/db/audit/audit-actor";
import { listAuditLog } from "@/db/audit/list-audit-log";
import { recordAudit } from "@/db/audit/record-audit";
import { addMembership } from "@/db/auth/memberships";
import { createUser } from "@/db/auth/users";
import type { Store } from "@/db/client";
import { writeRows } from "@/db/ingest/write-rows";
import { createKey, verifyKey } from "@/db/keys";
import { createKeyAs } from "@/db/projects/create-key-as";
import { createProjectAs } from "@/db/projects/create-project-as";
import { getProjectDetail } from "@/db/projects/get-project-detail";
import { revokeKeyAs } from "@/db/projects/revoke-key-as";
import { updateProjectAs } from "@/db/projects/update-project-as";
import { listProjects } from "@/db/queries/list-projects";
import { emptyRowBatch, type SpanRow } from "@/lib/ingest/rows";
import { DIALECTS, openTestStore } from "@/test/helpers/stores";

const NOW = Date.UTC(2026, 5, 1, 12);
const page = { offset: 0, limit: 100 };

const auditOf = (store: Store, project: string) =>
  store.all<{ at: number; action: string; actorUserId: string | null; actorLabel: string; target: string | null; detail: string | null; address: string | null }>(
    `SELECT at, action, actor_user_id AS "actorUserId", actor_label AS "actorLabel", target, detail, address FROM audit_log WHERE project_id = ? ORDER BY id`,
    [project],
  );

describe.each(DIALECTS)("project administration on %s", (dialect) => {
  let store: Store;
  let alice: AuditActor;
  beforeAll(async () => {
    store = await openTestStore(dialect);
    const user = await createUser(store, { email: "alice@example.test", name: "Alice", passwordHash: null, instanceOwner: true, now: NOW });
    alice = { actorUserId: user.id, actorLabel: user.email, address: "192.0.2.4" };
  });
  afterAll(async () => {
    await store?.close();
  });

  it("creates a project with its default rules, its creator as owner and one audit entry; a taken id changes nothing", async () => {
    const created = await createProjectAs(store, { id: "alpha", name: "Alpha" }, alice, NOW);
    expect(created).toEqual({ id: "alpha", name: "Alpha", createdAt: NOW, archivedAt: null, keys: { active: 0, revoked: 0 } });
    expect(await getProjectDetail(store, "alpha")).toEqual(created);
    expect(await store.all("SELECT user_id AS \"userId\", role FROM memberships WHERE project_id = 'alpha'")).toEqual([{ userId: alice.actorUserId, role: "owner" }]);
    expect((await store.all<{ name: string }>("SELECT name FROM alert_rules WHERE project_id = 'alpha' ORDER BY id")).map((r) => r.name)).toEqual([
      "New error code for a tool",
      "Critical drift finding",
    ]);
    expect(await auditOf(store, "alpha")).toEqual([
      { at: NOW, action: "project.created", actorUserId: alice.actorUserId, actorLabel: "alice@example.test", target: "alpha", detail: '{"name":"Alpha"}', address: "192.0.2.4" },
    ]);

    expect(await createProjectAs(store, { id: "alpha", name: "Alpha again" }, alice, NOW + 1)).toBeNull();
    expect((await getProjectDetail(store, "alpha"))?.name).toBe("Alpha");
    expect(await auditOf(store, "alpha")).toHaveLength(1);
    expect(Number((await store.get<{ n: number | string }>("SELECT COUNT(*) AS n FROM alert_rules WHERE project_id = 'alpha'"))?.n)).toBe(2);
    // Without a user (the admin secret, the CLI) nobody becomes a member.
    await createProjectAs(store, { id: "beta", name: "Beta" }, { actorUserId: null, actorLabel: "admin secret", address: null }, NOW);
    expect(await store.all("SELECT role FROM memberships WHERE project_id = 'beta'")).toEqual([]);
  });

  it("renames, archives and restores, recording only real changes; an unknown project is null", async () => {
    const later = NOW + 60_000;
    const both = await updateProjectAs(store, "alpha", { name: "Alpha prime", archived: true }, alice, later);
    expect(both).toEqual({ id: "alpha", name: "Alpha prime", createdAt: NOW, archivedAt: later, keys: { active: 0, revoked: 0 } });
    expect(await updateProjectAs(store, "alpha", { name: "Alpha prime", archived: true }, alice, later + 1)).toEqual(both);
    const restored = await updateProjectAs(store, "alpha", { archived: false }, alice, later + 2);
    expect(restored?.archivedAt).toBeNull();
    expect((await auditOf(store, "alpha")).slice(1).map((r) => [r.at, r.action, r.detail])).toEqual([
      [later, "project.renamed", '{"from":"Alpha","to":"Alpha prime"}'],
      [later, "project.archived", null],
      [later + 2, "project.restored", null],
    ]);
    expect(await updateProjectAs(store, "nope", { name: "x" }, alice, later)).toBeNull();
    expect(await auditOf(store, "nope")).toEqual([]);
  });

  it("creates and revokes keys with audit entries; another project's prefix is missing; an archived project gets no key", async () => {
    const key = await createKeyAs(store, "alpha", { name: "ingest one", scope: "ingest" }, alice, NOW + 5);
    expect(key).toEqual({ name: "ingest one", prefix: key!.key.slice(0, 12), scope: "ingest", createdAt: NOW + 5, lastUsedAt: null, revokedAt: null, key: key!.key });
    expect(await verifyKey(store, key!.key)).toEqual({ projectId: "alpha", scope: "ingest", archived: false });
    const betaKey = await createKey(store, "beta", "beta key");

    expect(await revokeKeyAs(store, "alpha", betaKey.prefix, alice, NOW + 6)).toEqual({ result: "missing" });
    expect(await revokeKeyAs(store, "alpha", "flk_zzzzzzzz", alice, NOW + 6)).toEqual({ result: "missing" });
    expect(await verifyKey(store, betaKey.key)).toEqual({ projectId: "beta", scope: "ingest", archived: false });
    expect(await revokeKeyAs(store, "alpha", key!.prefix, alice, NOW + 7)).toEqual({ result: "revoked" });
    expect(await revokeKeyAs(store, "alpha", key!.prefix, alice, NOW + 8)).toEqual({ result: "already_revoked", revokedAt: NOW + 7 });
    expect(await verifyKey(store, key!.key)).toBeNull();
    expect((await getProjectDetail(store, "alpha"))?.keys).toEqual({ active: 0, revoked: 1 });
    const keyAudit = (await auditOf(store, "alpha")).filter((r) => r.action.startsWith("key."));
    expect(keyAudit).toEqual([
      { at: NOW + 5, action: "key.created", actorUserId: alice.actorUserId, actorLabel: "alice@example.test", target: key!.prefix, detail: '{"name":"ingest one","scope":"ingest"}', address: "192.0.2.4" },
      { at: NOW + 7, action: "key.revoked", actorUserId: alice.actorUserId, actorLabel: "alice@example.test", target: key!.prefix, detail: '{"name":"ingest one","scope":"ingest"}', address: "192.0.2.4" },
    ]);

    await updateProjectAs(store, "beta", { archived: true }, alice, NOW + 9);
    expect(await verifyKey(store, betaKey.key)).toEqual({ projectId: "beta", scope: "ingest", archived: true });
    expect(await createKeyAs(store, "beta", { name: "late", scope: "read" }, alice, NOW + 10)).toBeNull();
    expect(await store.all("SELECT name FROM api_keys WHERE project_id = 'beta' ORDER BY id")).toEqual([{ name: "beta key" }]);
    expect((await listProjects(store)).projects.filter((p) => p.id === "alpha" || p.id === "beta")).toEqual([
      { id: "alpha", name: "Alpha prime", archivedAt: null },
      { id: "beta", name: "Beta", archivedAt: NOW + 9 },
    ]);
    await updateProjectAs(store, "beta", { archived: false }, alice, NOW + 11);
  });

  it("skips the alert rules of archived projects", async () => {
    await createProjectAs(store, { id: "gamma", name: "Gamma" }, alice, NOW);
    await createProjectAs(store, { id: "delta", name: "Delta" }, alice, NOW);
    // A code never seen before, after the rules were made: the new-code rule fires for both...
    const at = NOW + 30_000;
    const span: SpanRow = {
      spanId: "s1", traceId: null, parentSpanId: null, runId: "run-1", callId: "call-1", tool: "lookup", toolVersion: null, release: "1.0.0",
      service: "agent", environment: null, sdkName: null, sdkVersion: null, attempt: 1, startedAt: at, startedSubNs: null, endedAt: at + 10, outcome: "failed",
      code: "upstream_unavailable", errorClass: null, retryable: null, retryAfterMs: null, backoffMs: null, decision: "surfaced", permitted: null,
      abandoned: null, message: null, derived: null, source: "native", argsHash: null, afterError: null,
    };
    for (const project of ["gamma", "delta"]) {
      const batch = emptyRowBatch();
      batch.spans.push({ index: 0, row: span });
      await writeRows(store, project, batch);
    }
    // ... but delta is archived, so only gamma's is evaluated.
    await updateProjectAs(store, "delta", { archived: true }, alice, NOW + 40_000);
    await evaluateAlerts(store, NOW + 60_000, "");
    const fired = await store.all<{ project: string }>(`SELECT project_id AS project FROM alert_outbox WHERE project_id IN ('gamma', 'delta') ORDER BY id`);
    expect(fired).toEqual([{ project: "gamma" }]);
    // Restored, it is evaluated again.
    await updateProjectAs(store, "delta", { archived: false }, alice, NOW + 70_000);
    await evaluateAlerts(store, NOW + 80_000, "");
    expect((await store.all<{ project: string }>(`SELECT project_id AS project FROM alert_outbox WHERE project_id IN ('gamma', 'delta') ORDER BY id`)).map((r) => r.project)).toEqual([
      "gamma",
      "delta",
    ]);
  });

  it("lists a project's entries with its members' sign-ins, filtered and paged", async () => {
    // Made with the admin secret: nobody is a member of omega yet.
    await createProjectAs(store, { id: "omega", name: "Omega" }, { actorUserId: null, actorLabel: "admin secret", address: "192.0.2.9" }, NOW);
    const bob = await createUser(store, { email: "bob@example.test", name: "Bob", passwordHash: null, instanceOwner: false, now: NOW });
    const carol = await createUser(store, { email: "carol@example.test", name: "Carol", passwordHash: null, instanceOwner: false, now: NOW });
    await addMembership(store, "omega", bob.id, "viewer", NOW);
    const base = { detail: null, address: "198.51.100.1" };
    await recordAudit(store, { ...base, at: NOW + 1, projectId: null, actorUserId: bob.id, actorLabel: bob.email, action: "auth.sign_in", target: bob.email });
    await recordAudit(store, { ...base, at: NOW + 2, projectId: null, actorUserId: null, actorLabel: "anonymous", action: "auth.sign_in_failed", target: "BOB@example.test" });
    await recordAudit(store, { ...base, at: NOW + 3, projectId: null, actorUserId: carol.id, actorLabel: carol.email, action: "auth.sign_in", target: carol.email });
    await recordAudit(store, { ...base, at: NOW + 4, projectId: null, actorUserId: bob.id, actorLabel: bob.email, action: "auth.sign_out", target: null });
    await recordAudit(store, { ...base, at: NOW + 5, projectId: "alpha", actorUserId: bob.id, actorLabel: bob.email, action: "rule.updated", target: "1" });
    // Alice is an instance owner (she acts as owner of omega) but no member of it: her sign-ins stay out of its log.
    await recordAudit(store, { ...base, at: NOW + 6, projectId: null, actorUserId: alice.actorUserId, actorLabel: alice.actorLabel, action: "auth.sign_in", target: alice.actorLabel });

    const all = await listAuditLog(store, "omega", page);
    expect(all.entries.map((e) => [e.at, e.action, e.projectId])).toEqual([
      [NOW + 2, "auth.sign_in_failed", null],
      [NOW + 1, "auth.sign_in", null],
      [NOW, "project.created", "omega"],
    ]);
    expect(all.entries[2]).toEqual({
      id: expect.any(Number),
      at: NOW,
      projectId: "omega",
      actorUserId: null,
      actorLabel: "admin secret",
      action: "project.created",
      target: "omega",
      detail: { name: "Omega" },
      address: "192.0.2.9",
    });
    expect(all.page).toEqual({ total: 3, offset: 0, limit: 100 });
    expect((await listAuditLog(store, "omega", { ...page, action: "auth.sign_in" })).entries.map((e) => e.at)).toEqual([NOW + 1]);
    expect((await listAuditLog(store, "omega", { ...page, actor: "anonymous" })).entries.map((e) => e.at)).toEqual([NOW + 2]);
    expect((await listAuditLog(store, "omega", { ...page, actor: "bob@example.test", action: "auth.sign_in" })).page.total).toBe(1);
    const second = await listAuditLog(store, "omega", { offset: 1, limit: 1 });
    expect([second.entries.map((e) => e.at), second.page]).toEqual([[NOW + 1], { total: 3, offset: 1, limit: 1 }]);
    // Bob leaves: his sign-ins leave omega's log with him.
    await store.run("DELETE FROM memberships WHERE project_id = 'omega' AND user_id = ?", [bob.id]);
    expect((await listAuditLog(store, "omega", page)).entries.map((e) => e.action)).toEqual(["project.created"]);
  });
});
