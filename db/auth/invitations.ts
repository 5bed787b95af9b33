import type { ProjectRole } from "@/lib/auth/roles";
import type { Invitation } from "@/lib/contracts/auth";
import type { Executor } from "../client";

/** An invitation found by its link's token, with what the page that accepts it shows. */
export interface InvitationByToken extends Invitation {
  projectName: string;
  invitedBy: string | null;
  acceptedAt: number | null;
  revokedAt: number | null;
}

const COLUMNS = `i.id, i.project_id AS "projectId", i.role, i.email, u.email AS "createdBy", i.created_at AS "createdAt", i.expires_at AS "expiresAt"`;

const toInvitation = <T extends Invitation>(r: T): T => ({ ...r, id: Number(r.id), createdAt: Number(r.createdAt), expiresAt: Number(r.expiresAt) });

/** Stores an invitation (the hash of its link's token) and answers it. */
export async function createInvitation(
  db: Executor,
  i: { tokenHash: string; projectId: string; role: ProjectRole; email: string | null; createdBy: string | null; now: number; expiresAt: number },
): Promise<Invitation> {
  const row = await db.get<{ id: number }>(
    "INSERT INTO invitations (token_hash, project_id, role, email, created_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
    [i.tokenHash, i.projectId, i.role, i.email, i.createdBy, i.now, i.expiresAt],
  );
  const creator = i.createdBy === null ? undefined : await db.get<{ email: string }>("SELECT email FROM users WHERE id = ?", [i.createdBy]);
  return { id: Number(row!.id), projectId: i.projectId, role: i.role, email: i.email, createdBy: creator?.email ?? null, createdAt: i.now, expiresAt: i.expiresAt };
}

/** The invitation of a link's token hash, used or not (the caller decides). */
export async function findInvitationByToken(db: Executor, tokenHash: string): Promise<InvitationByToken | null> {
  const row = await db.get<InvitationByToken>(
    `SELECT ${COLUMNS}, p.name AS "projectName", u.name AS "invitedBy", i.accepted_at AS "acceptedAt", i.revoked_at AS "revokedAt"
       FROM invitations i JOIN projects p ON p.id = i.project_id LEFT JOIN users u ON u.id = i.created_by
      WHERE i.token_hash = ?`,
    [tokenHash],
  );
  return row ? toInvitation(row) : null;
}

/** A project's invitations that can still be accepted, newest first. */
export async function listPendingInvitations(db: Executor, projectId: string, now: number): Promise<Invitation[]> {
  const rows = await db.all<Invitation>(
    `SELECT ${COLUMNS} FROM invitations i LEFT JOIN users u ON u.id = i.created_by
      WHERE i.project_id = ? AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > ?
      ORDER BY i.created_at DESC, i.id DESC`,
    [projectId, now],
  );
  return rows.map(toInvitation);
}

/** Revokes a pending invitation of a project; answers whether there was one with this id. */
export async function revokeInvitation(db: Executor, projectId: string, id: number, now: number): Promise<boolean> {
  return (await db.run("UPDATE invitations SET revoked_at = ? WHERE id = ? AND project_id = ? AND accepted_at IS NULL AND revoked_at IS NULL", [now, id, projectId])) > 0;
}

/**
 * Marks an invitation used by `userId`. The condition makes the link single-use even when two
 * people open it at once: only one update matches.
 */
export async function markInvitationAccepted(db: Executor, id: number, userId: string, now: number): Promise<boolean> {
  return (
    (await db.run("UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ? AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?", [
      now,
      userId,
      id,
      now,
    ])) > 0
  );
}
