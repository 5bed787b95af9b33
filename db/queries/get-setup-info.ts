import type { SetupInfo } from "@/lib/contracts/projects";
import type { Executor } from "../client";
import { projectHasData } from "./rollup-filters";

/** What the first-run guide shows: whether data arrived and the visible prefixes of active keys. */
export async function getSetupInfo(db: Executor, projectId: string): Promise<SetupInfo> {
  const [project, keyPrefixes, hasData] = await Promise.all([
    db.get<{ one: number }>("SELECT 1 AS one FROM projects WHERE id = ?", [projectId]),
    db.all<SetupInfo["keyPrefixes"][number]>(
      `SELECT prefix, name, created_at AS "createdAt" FROM api_keys WHERE project_id = ? AND revoked_at IS NULL ORDER BY id`,
      [projectId],
    ),
    projectHasData(db, projectId),
  ]);
  return { project: projectId, projectExists: project !== undefined, hasData, keyPrefixes };
}
