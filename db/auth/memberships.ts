import type { ProjectRole } from "@/lib/auth/roles";
import type { Member, Membership } from "@/lib/contracts/auth";
import type { Executor } from "../client";

/** Makes a user a member of a project; an existing membership is left as it is. */
export async function addMembership(db: Executor, projectId: string, userId: string, role: ProjectRole, now: number): Promise<void> {
  await db.run("INSERT INTO memberships (project_id, user_id, role, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (project_id, user_id) DO NOTHING", [projectId, userId, role, now]);
}

/** Makes a user owner of every existing project (the instance owner at setup). */
export async function addOwnerOfEveryProject(db: Executor, userId: string, now: number): Promise<void> {
  await db.run(
    // `WHERE 1 = 1`: SQLite reads `ON CONFLICT` right after `FROM t` as a join constraint without a WHERE.
    "INSERT INTO memberships (project_id, user_id, role, created_at) SELECT id, ?, 'owner', ? FROM projects WHERE 1 = 1 ON CONFLICT (project_id, user_id) DO NOTHING",
    [userId, now],
  );
}

/** A user's role in a project, or null when they are not a member. */
export async function findMembershipRole(db: Executor, projectId: string, userId: string): Promise<ProjectRole | null> {
  const row = await db.get<{ role: ProjectRole }>("SELECT role FROM memberships WHERE project_id = ? AND user_id = ?", [projectId, userId]);
  return row?.role ?? null;
}

/** A user's projects with their role in each, by project id. */
export async function listUserMemberships(db: Executor, userId: string): Promise<Membership[]> {
  return db.all<Membership>(
    `SELECT m.project_id AS "projectId", p.name AS "projectName", m.role FROM memberships m JOIN projects p ON p.id = m.project_id WHERE m.user_id = ? ORDER BY m.project_id`,
    [userId],
  );
}

const MEMBER_SQL = `SELECT u.id AS "userId", u.email, u.name, m.role, u.instance_owner AS "instanceOwner", m.created_at AS "joinedAt"
  FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.project_id = ?`;

type RawMember = Omit<Member, "instanceOwner"> & { instanceOwner: number };
const toMember = (r: RawMember): Member => ({ ...r, instanceOwner: Number(r.instanceOwner) === 1, joinedAt: Number(r.joinedAt) });

/** A project's members, strongest role first, then by email. */
export async function listProjectMembers(db: Executor, projectId: string): Promise<Member[]> {
  const rows = await db.all<RawMember>(`${MEMBER_SQL} ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2 ELSE 3 END, u.email, u.id`, [projectId]);
  return rows.map(toMember);
}

/** One member of a project, or null. */
export async function findProjectMember(db: Executor, projectId: string, userId: string): Promise<Member | null> {
  const row = await db.get<RawMember>(`${MEMBER_SQL} AND m.user_id = ?`, [projectId, userId]);
  return row ? toMember(row) : null;
}

/** How many owners a project has (the last one may not be demoted or removed). */
export async function countProjectOwners(db: Executor, projectId: string): Promise<number> {
  const row = await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM memberships WHERE project_id = ? AND role = 'owner'", [projectId]);
  return Number(row?.n ?? 0);
}

/** Changes a member's role; answers whether they were a member. */
export async function setMembershipRole(db: Executor, projectId: string, userId: string, role: ProjectRole): Promise<boolean> {
  return (await db.run("UPDATE memberships SET role = ? WHERE project_id = ? AND user_id = ?", [role, projectId, userId])) > 0;
}

/** Removes a member; answers whether they were one. */
export async function deleteMembership(db: Executor, projectId: string, userId: string): Promise<boolean> {
  return (await db.run("DELETE FROM memberships WHERE project_id = ? AND user_id = ?", [projectId, userId])) > 0;
}
