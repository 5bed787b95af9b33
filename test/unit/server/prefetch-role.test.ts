// A page's prefetch checks the role its route checks: the keys and audit-log reads are admins', so
// a viewer's page gets no keys or audit entries in its cache (projectRead once checked the role for
// GET only, and the prefetch fell back to viewer). Real SQLite store, the real route definitions;
// only the page's caller, which Next reads from the request headers, is given.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { QueryClient } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addMembership } from "@/db/auth/memberships";
import { createUser } from "@/db/auth/users";
import { createKey, createProject } from "@/db/keys";
import type { ProjectRole } from "@/lib/auth/roles";
import type { Caller } from "@/server/auth/access";

const dir = mkdtempSync(path.join(tmpdir(), "faultline-prefetch-"));
process.env.FAULTLINE_DB_PATH = path.join(dir, "faultline.db");
delete process.env.FAULTLINE_DATABASE_URL;

let pageCaller: Caller | null = null;
vi.mock("@/server/auth/page-caller", () => ({ pageCaller: async () => pageCaller }));

const { getStore } = await import("@/server/store");
const { projectKeysRoute } = await import("@/server/routes/project-keys");
const { auditLogRoute } = await import("@/server/routes/audit-log");
const { membersRoute } = await import("@/server/routes/members");

const callers = new Map<ProjectRole, Caller>();

beforeAll(async () => {
  const store = await getStore();
  await createProject(store, "acme", "Acme");
  await createKey(store, "acme", "ingest");
  for (const role of ["viewer", "member", "admin", "owner"] as const) {
    const user = await createUser(store, { email: `${role}@acme.test`, name: role, passwordHash: null, instanceOwner: false, now: Date.now() });
    await addMembership(store, "acme", user.id, role, Date.now());
    callers.set(role, { kind: "user", userId: user.id, email: user.email, name: role, instanceOwner: false, sessionTokenHash: "x", csrfToken: "y" });
  }
});
afterAll(async () => {
  await (await getStore()).close();
  rmSync(dir, { recursive: true, force: true });
});

/** Which roles' prefetch put an answer in the page's cache. */
async function seededFor(read: typeof projectKeysRoute | typeof auditLogRoute | typeof membersRoute): Promise<ProjectRole[]> {
  const seeded: ProjectRole[] = [];
  for (const [role, caller] of callers) {
    pageCaller = caller;
    const qc = new QueryClient();
    const input = { params: { project: "acme" }, search: {} };
    await read.prefetch(qc, input);
    if (qc.getQueryCache().getAll().some((q) => q.state.data !== undefined)) seeded.push(role);
  }
  return seeded;
}

describe("a page's prefetch", () => {
  it("seeds the keys and the audit log for admins and owners only, as their routes answer", async () => {
    expect(await seededFor(projectKeysRoute)).toEqual(["admin", "owner"]);
    expect(await seededFor(auditLogRoute)).toEqual(["admin", "owner"]);
  });

  it("seeds what every member reads for every member", async () => {
    expect(await seededFor(membersRoute)).toEqual(["viewer", "member", "admin", "owner"]);
  });
});
