import type { ProjectDetail } from "@/lib/contracts/project-admin";
import type { Executor } from "../client";

/** A project with its archive state and key counts, or null when there is no such project. */
export async function getProjectDetail(db: Executor, id: string): Promise<ProjectDetail | null> {
  const row = await db.get<{ id: string; name: string; createdAt: number; archivedAt: number | null; active: number | string; revoked: number | string }>(
    `SELECT p.id, p.name, p.created_at AS "createdAt", p.archived_at AS "archivedAt",
       (SELECT COUNT(*) FROM api_keys k WHERE k.project_id = p.id AND k.revoked_at IS NULL) AS active,
       (SELECT COUNT(*) FROM api_keys k WHERE k.project_id = p.id AND k.revoked_at IS NOT NULL) AS revoked
     FROM projects p WHERE p.id = ?`,
    [id],
  );
  if (!row) return null;
  return { id: row.id, name: row.name, createdAt: row.createdAt, archivedAt: row.archivedAt, keys: { active: Number(row.active), revoked: Number(row.revoked) } };
}
