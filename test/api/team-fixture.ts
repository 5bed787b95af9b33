// A server of its own with two projects and one signed-in account per role, for the projects, keys
// and audit-log API files. Its own server, not the run's shared one: accounts end setup mode, and
// the other files rely on it.
import { afterAll, beforeAll, inject } from "vitest";
import { createKey, createProject } from "@/db/keys";
import type { ProjectRole } from "@/lib/auth/roles";
import { createAccount, type TestAccount } from "../helpers/session-accounts";
import { startServer, type TestServer } from "../helpers/server";

/** Who calls: a member of `project` by role, a member of another project only, or nobody signed in. */
export const CALLERS = ["owner", "admin", "member", "viewer", "outsider", "anonymous"] as const;
export type CallerName = (typeof CALLERS)[number];

export interface Team {
  server: TestServer;
  /** The project every role belongs to. */
  project: string;
  /** The outsider's project. */
  other: string;
  /** An ingest key of `other`. */
  otherKey: string;
  /** The instance owner (a member of no project). */
  instanceOwner: TestAccount;
  accounts: Record<Exclude<CallerName, "anonymous">, TestAccount>;
  /** The headers a caller sends (cookies and, unless told otherwise, the CSRF header). */
  headersOf(who: CallerName | "instanceOwner", options?: { csrf?: boolean }): Record<string, string>;
  /** One request per caller, answering each caller's status. */
  statuses(request: (headers: Record<string, string>) => Promise<Response>): Promise<Record<CallerName, number>>;
}

/** Starts the server and the accounts before the file's tests, and stops it after them. */
export function useTeam(): () => Team {
  let team: Team | undefined;
  beforeAll(async () => {
    const server = await startServer({ dialect: inject("serverDialect") });
    const { store } = server;
    const project = "acme";
    const other = "globex";
    await createProject(store, project, "Acme agents");
    await createProject(store, other, "Globex agents");
    const { key: otherKey } = await createKey(store, other, "globex ingest");
    const member = (role: ProjectRole): [string, ProjectRole][] => [[project, role]];
    const accounts = {
      owner: await createAccount(store, { email: "owner@acme.test", memberships: member("owner") }),
      admin: await createAccount(store, { email: "admin@acme.test", memberships: member("admin") }),
      member: await createAccount(store, { email: "member@acme.test", memberships: member("member") }),
      viewer: await createAccount(store, { email: "viewer@acme.test", memberships: member("viewer") }),
      outsider: await createAccount(store, { email: "outsider@globex.test", memberships: [[other, "owner"]] }),
    };
    const instanceOwner = await createAccount(store, { email: "root@faultline.test", instanceOwner: true });
    const headersOf = (who: CallerName | "instanceOwner", options?: { csrf?: boolean }) =>
      who === "anonymous" ? {} : who === "instanceOwner" ? instanceOwner.headers(options) : accounts[who].headers(options);
    team = {
      server,
      project,
      other,
      otherKey,
      instanceOwner,
      accounts,
      headersOf,
      async statuses(request) {
        const out = {} as Record<CallerName, number>;
        for (const who of CALLERS) out[who] = (await request(headersOf(who))).status;
        return out;
      },
    };
  });
  afterAll(async () => {
    await team?.server.stop();
  });
  return () => team!;
}

/** A JSON request's init: method, the caller's headers and the body. */
export const json = (method: string, headers: Record<string, string>, body?: unknown): RequestInit => ({
  method,
  headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** One native ingest record (an attempt of `tool`), enough to tell whether a key may ingest and to find it read back. */
export function ingestOne(url: string, key: string, tool = "lookup_order"): Promise<Response> {
  const id = `span-${Math.random().toString(36).slice(2)}`;
  const at = Date.now() - 5_000;
  return fetch(`${url}/api/v1/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      resource: { service: "support-agent", release: "1.0.0" },
      records: [{ type: "tool_call_span", id, run_id: `run-${id}`, call_id: `call-${id}`, tool, attempt: 1, started_at: at, ended_at: at + 40, outcome: "ok" }],
    }),
  });
}

/** The audit rows of a project as stored, oldest first, for exact assertions. */
export async function auditRows(team: Team, project: string, action?: string) {
  const rows = await team.server.store.all<{ action: string; actorUserId: string | null; actorLabel: string; target: string | null; detail: string | null; address: string | null }>(
    `SELECT action, actor_user_id AS "actorUserId", actor_label AS "actorLabel", target, detail, address FROM audit_log WHERE project_id = ?${action ? " AND action = ?" : ""} ORDER BY id`,
    action ? [project, action] : [project],
  );
  return rows.map((r) => ({ ...r, detail: r.detail === null ? null : (JSON.parse(r.detail) as unknown) }));
}
