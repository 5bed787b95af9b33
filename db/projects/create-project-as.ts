import type { ProjectCreate, ProjectDetail } from "@/lib/contracts/project-admin";
import { addMembership } from "../auth/memberships";
import type { AuditActor } from "../audit/audit-actor";
import { recordAudit } from "../audit/record-audit";
import type { Store } from "../client";
import { createProject } from "../keys";

/**
 * Creates a project (with the default alert rules) in one transaction with its audit entry; a
 * signed-in creator becomes its owner. Answers null, changing nothing, when the id is taken.
 */
export async function createProjectAs(store: Store, project: ProjectCreate, actor: AuditActor, now: number): Promise<ProjectDetail | null> {
  return store.transaction(async (tx) => {
    if (!(await createProject(tx, project.id, project.name, now))) return null;
    if (actor.actorUserId !== null) await addMembership(tx, project.id, actor.actorUserId, "owner", now);
    await recordAudit(tx, { ...actor, projectId: project.id, action: "project.created", target: project.id, detail: { name: project.name }, at: now });
    return { id: project.id, name: project.name, createdAt: now, archivedAt: null, keys: { active: 0, revoked: 0 } };
  });
}
