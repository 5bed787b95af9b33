import type { ProjectsAnswer } from "@/lib/contracts/projects";
import type { Executor } from "../client";

/** All projects, for the project switcher (archived ones marked). */
export async function listProjects(db: Executor): Promise<ProjectsAnswer> {
  return { projects: await db.all<ProjectsAnswer["projects"][number]>(`SELECT id, name, archived_at AS "archivedAt" FROM projects ORDER BY id`) };
}

/** The projects a user is a member of, for their project switcher. */
export async function listUserProjects(db: Executor, userId: string): Promise<ProjectsAnswer> {
  return {
    projects: await db.all<ProjectsAnswer["projects"][number]>(
      `SELECT p.id, p.name, p.archived_at AS "archivedAt" FROM projects p JOIN memberships m ON m.project_id = p.id WHERE m.user_id = ? ORDER BY p.id`,
      [userId],
    ),
  };
}
