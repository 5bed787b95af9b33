import type { ProjectCreate, ProjectDetail } from "@/lib/contracts/project-admin";
import { addMembership } from "../auth/memberships";
import type { AuditActor } from "../audit/audit-actor";
import { auditedChange, noChange, type Audited } from "../audit/audited-change";
import type { Store, Tx } from "../client";
import { createProject } from "../keys";

/**
 * Creates a project (with the default alert rules), audited; a signed-in creator (`ownerUserId`)
 * becomes its owner. Answers null, changing nothing, when the id is taken.
 */
export async function createProjectChange(tx: Tx, project: ProjectCreate, ownerUserId: string | null, now: number): Promise<Audited<ProjectDetail | null>> {
  if (!(await createProject(tx, project.id, project.name, now))) return { result: null, audit: noChange("the id is taken") };
  if (ownerUserId !== null) await addMembership(tx, project.id, ownerUserId, "owner", now);
  return {
    result: { id: project.id, name: project.name, createdAt: now, archivedAt: null, keys: { active: 0, revoked: 0 } },
    audit: { projectId: project.id, action: "project.created", target: project.id, detail: { name: project.name } },
  };
}

/** `createProjectChange` in its own transaction with its audit entry, for the command line. */
export async function createProjectAs(store: Store, project: ProjectCreate, actor: AuditActor, now: number): Promise<ProjectDetail | null> {
  return auditedChange(store, actor, now, (tx) => createProjectChange(tx, project, actor.actorUserId, now));
}
