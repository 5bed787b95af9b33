import type { ProjectDetail, ProjectPatch } from "@/lib/contracts/project-admin";
import type { AuditActor } from "../audit/audit-actor";
import { auditedChange, noChange, type AuditNote, type Audited } from "../audit/audited-change";
import type { Store, Tx } from "../client";
import { getProjectDetail } from "./get-project-detail";

/**
 * Renames, archives or restores a project, each real change with its audit entry. Asking for the
 * state the project already has changes nothing and records nothing. Answers the project
 * afterwards, or null when there is no such project.
 */
export async function updateProjectChange(tx: Tx, id: string, patch: ProjectPatch, now: number): Promise<Audited<ProjectDetail | null>> {
  const current = await getProjectDetail(tx, id);
  if (!current) return { result: null, audit: noChange("no such project") };
  const notes: AuditNote[] = [];
  if (patch.name !== undefined && patch.name !== current.name) {
    await tx.run("UPDATE projects SET name = ? WHERE id = ?", [patch.name, id]);
    notes.push({ projectId: id, target: id, action: "project.renamed", detail: { from: current.name, to: patch.name } });
  }
  if (patch.archived !== undefined && patch.archived !== (current.archivedAt !== null)) {
    await tx.run("UPDATE projects SET archived_at = ? WHERE id = ?", [patch.archived ? now : null, id]);
    notes.push({ projectId: id, target: id, action: patch.archived ? "project.archived" : "project.restored" });
  }
  const [first, ...rest] = notes;
  return { result: await getProjectDetail(tx, id), audit: first ? [first, ...rest] : noChange("the project already is as asked") };
}

/** `updateProjectChange` in its own transaction with its audit entries, for the command line. */
export async function updateProjectAs(store: Store, id: string, patch: ProjectPatch, actor: AuditActor, now: number): Promise<ProjectDetail | null> {
  return auditedChange(store, actor, now, (tx) => updateProjectChange(tx, id, patch, now));
}
