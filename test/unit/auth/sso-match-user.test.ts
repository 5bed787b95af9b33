import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "@/db/auth/users";
import type { Store } from "@/db/client";
import { createProject, ensureDefaultProject } from "@/db/keys";
import type { SsoIdentity } from "@/lib/auth/sso-identity";
import { resolveSsoUser, type SsoUserOptions } from "@/server/auth/oidc/match-user";
import { SsoFailure } from "@/server/auth/oidc/sso-failure";
import { DIALECTS, openTestStore } from "../../helpers/stores";

const T = Date.UTC(2026, 4, 1, 12);
const ISSUER = "https://idp.example";
const options: SsoUserOptions = { issuer: ISSUER, defaultProject: "default", defaultRole: "viewer", now: T, address: "10.0.0.7" };
const alice: SsoIdentity = { subject: "sub-alice", email: "alice@example.com", name: "Alice" };

describe.each(DIALECTS)("resolveSsoUser (%s)", (dialect) => {
  let store: Store;
  beforeEach(async () => {
    store = await openTestStore(dialect);
    await ensureDefaultProject(store);
  });
  afterEach(async () => {
    await store.close();
  });

  const owner = () => createUser(store, { email: "owner@example.com", name: "Owner", passwordHash: "scrypt$16384$8$1$c2FsdA$aGFzaA", instanceOwner: true, now: T - 1000 });
  const users = () => store.all<{ email: string; name: string; password_hash: string | null; instance_owner: number }>("SELECT email, name, password_hash, instance_owner FROM users ORDER BY email");
  const identities = () => store.all<{ issuer: string; subject: string; user_id: string; email: string; created_at: number; last_sign_in_at: number }>(
    "SELECT issuer, subject, user_id, email, created_at, last_sign_in_at FROM oidc_identities ORDER BY issuer, subject",
  );
  const memberships = () => store.all<{ project_id: string; user_id: string; role: string }>("SELECT project_id, user_id, role FROM memberships ORDER BY project_id, user_id");
  const audit = () => store.all<{ project_id: string | null; actor_user_id: string | null; actor_label: string; action: string; target: string | null; detail: string | null; address: string | null; at: number }>(
    "SELECT project_id, actor_user_id, actor_label, action, target, detail, address, at FROM audit_log ORDER BY id",
  );
  const refusal = async (identity: SsoIdentity, o: SsoUserOptions = options) => {
    const error = await resolveSsoUser(store, identity, o).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SsoFailure);
    const f = error as SsoFailure;
    return { code: f.code, who: f.who };
  };

  it("refuses to create the first account of an instance: that one comes from the setup link", async () => {
    expect(await refusal(alice)).toEqual({ code: "sso_setup_pending", who: { email: "alice@example.com", userId: null } });
    expect([await users(), await identities(), await audit()]).toEqual([[], [], []]);
  });

  it("creates a new user without a password, a member of the default project with the default role", async () => {
    await owner();
    const { user, how } = await resolveSsoUser(store, alice, options);
    expect(how).toBe("created");
    expect(user).toMatchObject({ email: "alice@example.com", name: "Alice", instanceOwner: false, createdAt: T, disabledAt: null });
    expect(await users()).toEqual([
      { email: "alice@example.com", name: "Alice", password_hash: null, instance_owner: 0 },
      { email: "owner@example.com", name: "Owner", password_hash: "scrypt$16384$8$1$c2FsdA$aGFzaA", instance_owner: 1 },
    ]);
    expect(await memberships()).toEqual([{ project_id: "default", user_id: user.id, role: "viewer" }]);
    expect(await identities()).toEqual([{ issuer: ISSUER, subject: "sub-alice", user_id: user.id, email: "alice@example.com", created_at: T, last_sign_in_at: T }]);
    expect(await audit()).toEqual([
      { project_id: "default", actor_user_id: user.id, actor_label: "alice@example.com", action: "member.joined", target: "alice@example.com", detail: '{"method":"oidc","role":"viewer"}', address: "10.0.0.7", at: T },
    ]);
  });

  it("gives the configured role in the configured project", async () => {
    await owner();
    await createProject(store, "team-a", "Team A");
    const { user } = await resolveSsoUser(store, alice, { ...options, defaultProject: "team-a", defaultRole: "admin" });
    expect(await memberships()).toEqual([{ project_id: "team-a", user_id: user.id, role: "admin" }]);
  });

  it("signs the same identity in again as the same user, with the provider's current email on the identity", async () => {
    await owner();
    const first = await resolveSsoUser(store, alice, options);
    const again = await resolveSsoUser(store, { ...alice, email: "alice.l@example.com", name: "Renamed" }, { ...options, now: T + 60_000 });
    expect(again.how).toBe("identity");
    expect(again.user).toEqual(first.user);
    expect((await users()).map((u) => [u.email, u.name])).toEqual([
      ["alice@example.com", "Alice"],
      ["owner@example.com", "Owner"],
    ]);
    expect(await identities()).toEqual([{ issuer: ISSUER, subject: "sub-alice", user_id: first.user.id, email: "alice.l@example.com", created_at: T, last_sign_in_at: T + 60_000 }]);
    expect((await audit()).map((a) => a.action)).toEqual(["member.joined"]);
  });

  it("links an existing password account by its verified email, without a new membership", async () => {
    const existing = await createUser(store, { email: "Alice@Example.com", name: "Alice P", passwordHash: "scrypt$16384$8$1$c2FsdA$aGFzaA", instanceOwner: false, now: T - 5000 });
    const { user, how } = await resolveSsoUser(store, alice, options);
    expect(how).toBe("linked");
    expect(user).toEqual(existing);
    expect(await users()).toEqual([{ email: "alice@example.com", name: "Alice P", password_hash: "scrypt$16384$8$1$c2FsdA$aGFzaA", instance_owner: 0 }]);
    expect(await memberships()).toEqual([]);
    expect(await identities()).toEqual([{ issuer: ISSUER, subject: "sub-alice", user_id: existing.id, email: "alice@example.com", created_at: T, last_sign_in_at: T }]);
    expect(await audit()).toEqual([
      { project_id: null, actor_user_id: existing.id, actor_label: "alice@example.com", action: "user.identity_linked", target: "alice@example.com", detail: `{"method":"oidc","issuer":"${ISSUER}"}`, address: "10.0.0.7", at: T },
    ]);
  });

  it("keys identities by issuer and subject: the same subject at another provider is another identity", async () => {
    await owner();
    const first = await resolveSsoUser(store, alice, options);
    const other = await resolveSsoUser(store, alice, { ...options, issuer: "https://other-idp.example" });
    expect(other).toEqual({ user: first.user, how: "linked" });
    expect((await identities()).map((i) => [i.issuer, i.subject, i.user_id])).toEqual([
      [ISSUER, "sub-alice", first.user.id],
      ["https://other-idp.example", "sub-alice", first.user.id],
    ]);
  });

  it("refuses a second subject of the same provider for an account already linked", async () => {
    await owner();
    const first = await resolveSsoUser(store, alice, options);
    expect(await refusal({ ...alice, subject: "sub-recycled" })).toEqual({ code: "sso_identity_conflict", who: { email: "alice@example.com", userId: first.user.id } });
    expect((await identities()).map((i) => i.subject)).toEqual(["sub-alice"]);
  });

  it("refuses a disabled user, found by identity or by email", async () => {
    await owner();
    const { user } = await resolveSsoUser(store, alice, options);
    await store.run("UPDATE users SET disabled_at = ? WHERE id = ?", [T + 1, user.id]);
    expect(await refusal(alice)).toEqual({ code: "sso_account_disabled", who: { email: "alice@example.com", userId: user.id } });
    const bob = await createUser(store, { email: "bob@example.com", name: "Bob", passwordHash: null, instanceOwner: false, now: T });
    await store.run("UPDATE users SET disabled_at = ? WHERE id = ?", [T + 1, bob.id]);
    expect(await refusal({ subject: "sub-bob", email: "bob@example.com", name: "Bob" })).toEqual({ code: "sso_account_disabled", who: { email: "bob@example.com", userId: bob.id } });
    expect((await identities()).map((i) => i.subject)).toEqual(["sub-alice"]);
    expect((await identities())[0]!.last_sign_in_at).toBe(T);
  });

  it("refuses to create a user when the default project does not exist, and writes nothing", async () => {
    await owner();
    expect(await refusal(alice, { ...options, defaultProject: "nope" })).toEqual({ code: "sso_project_missing", who: { email: "alice@example.com", userId: null } });
    expect((await users()).map((u) => u.email)).toEqual(["owner@example.com"]);
    expect([await identities(), await memberships(), await audit()]).toEqual([[], [], []]);
  });

  it("creates one user when the same new person's two callbacks race", async () => {
    await owner();
    const [a, b] = await Promise.all([resolveSsoUser(store, alice, options), resolveSsoUser(store, alice, options)]);
    expect(a.user.id).toBe(b.user.id);
    expect([a.how, b.how].sort()).toEqual(["created", "identity"]);
    expect((await users()).map((u) => u.email)).toEqual(["alice@example.com", "owner@example.com"]);
    expect(await identities()).toHaveLength(1);
  });
});
