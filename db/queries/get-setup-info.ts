import type { SetupInfo } from "@/lib/contracts/projects";
import type { Store } from "../client";
import { prepared, projectHasData } from "./rollup-filters";

/** What the first-run guide shows: whether data arrived and the visible prefixes of active keys. */
export function getSetupInfo(store: Store, projectId: string): SetupInfo {
  const { sqlite } = store;
  const exists = prepared<{ one: 1 }>(sqlite, "SELECT 1 AS one FROM projects WHERE id = ?").get(projectId) !== undefined;
  const keyPrefixes = prepared<SetupInfo["keyPrefixes"][number]>(
    sqlite,
    "SELECT prefix, name, created_at AS createdAt FROM api_keys WHERE project_id = ? AND revoked_at IS NULL ORDER BY id",
  ).all(projectId);
  return { project: projectId, projectExists: exists, hasData: projectHasData(sqlite, projectId), keyPrefixes };
}
