import type { ProjectsAnswer } from "@/lib/contracts/projects";
import type { Store } from "../client";
import { prepared } from "./rollup-filters";

/** All projects, for the project switcher. */
export function listProjects(store: Store): ProjectsAnswer {
  return { projects: prepared<ProjectsAnswer["projects"][number]>(store.sqlite, "SELECT id, name FROM projects ORDER BY id").all() };
}
