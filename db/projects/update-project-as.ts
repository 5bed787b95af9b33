import type { ProjectDetail, ProjectPatch } from "@/lib/contracts/project-admin";
import type { AuditActor } from "../audit/audit-actor";
import { recordAudit } from "../audit/record-audit";
import type { Store } from "../client";
import { getProjectDetail } from "./get-project-detail";

/**
 * Renames, archives or restores a project, each real change with its audit entry, in one
 * transaction. Asking for the state the project already has changes nothing and records nothing.
 * Answers the project afterwards, or null when there is no such project.
 */
export async function updateProjectAs(store: Store, id: string, patch: ProjectPatch, actor: AuditActor, now: number): Promise<ProjectDetail | null> {
  return store.transaction(async (tx) => {
    const current = await getProjectDetail(tx, id);
    if (!current) return null;
    const audit = { ...actor, projectId: id, target: id, at: now };
    if (patch.name !== undefined && patch.name !== current.name) {
      await tx.run("UPDATE projects SET name = ? WHERE id = ?", [patch.name, id]);
      await recordAudit(tx, { ...audit, action: "project.renamed", detail: { from: current.name, to: patch.name } });
    }
    if (patch.archived !== undefined && patch.archived !== (current.archivedAt !== null)) {
      await tx.run("UPDATE projects SET archived_at = ? WHERE id = ?", [patch.archived ? now : null, id]);
      await recordAudit(tx, { ...audit, action: patch.archived ? "project.archived" : "project.restored" });
    }
    return getProjectDetail(tx, id);
  });
}
