import type { ProjectsAnswer } from "@/lib/contracts/projects";
import type { Executor } from "../client";

/** All projects, for the project switcher. */
export async function listProjects(db: Executor): Promise<ProjectsAnswer> {
  return { projects: await db.all<ProjectsAnswer["projects"][number]>("SELECT id, name FROM projects ORDER BY id") };
}
