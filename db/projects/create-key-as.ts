import type { KeyCreated } from "@/lib/contracts/keys";
import type { AuditActor } from "../audit/audit-actor";
import { auditedChange, noChange, type Audited } from "../audit/audited-change";
import type { Store, Tx } from "../client";
import { createKey, type KeyScope } from "../keys";

/**
 * Creates a key, audited with its prefix and scope (never the key); the clear key is answered this
 * once. Answers null, creating nothing, when the project is archived: it takes no data, so a new key
 * there would be one more secret with nothing to do.
 */
export async function createKeyChange(tx: Tx, projectId: string, spec: { name: string; scope: KeyScope }, now: number): Promise<Audited<KeyCreated | null>> {
  const project = await tx.get<{ archivedAt: number | null }>(`SELECT archived_at AS "archivedAt" FROM projects WHERE id = ?`, [projectId]);
  if (!project || project.archivedAt !== null) return { result: null, audit: noChange("the project is archived or gone") };
  const created = await createKey(tx, projectId, spec.name, spec.scope, now);
  const { name, prefix, scope, createdAt, lastUsedAt, revokedAt, key } = created;
  return { result: { name, prefix, scope, createdAt, lastUsedAt, revokedAt, key }, audit: { projectId, action: "key.created", target: prefix, detail: { name: spec.name, scope: spec.scope } } };
}

/** `createKeyChange` in its own transaction with its audit entry, for the command line. */
export async function createKeyAs(store: Store, projectId: string, spec: { name: string; scope: KeyScope }, actor: AuditActor, now: number): Promise<KeyCreated | null> {
  return auditedChange(store, actor, now, (tx) => createKeyChange(tx, projectId, spec, now));
}
