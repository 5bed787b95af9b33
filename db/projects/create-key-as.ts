import type { KeyCreated } from "@/lib/contracts/keys";
import type { AuditActor } from "../audit/audit-actor";
import { recordAudit } from "../audit/record-audit";
import type { Store } from "../client";
import { createKey, type KeyScope } from "../keys";

/**
 * Creates a key with its audit entry (its prefix and scope, never the key) in one transaction; the
 * clear key is answered this once. Answers null, creating nothing, when the project is archived: it
 * takes no data, so a new key there would be one more secret with nothing to do.
 */
export async function createKeyAs(store: Store, projectId: string, spec: { name: string; scope: KeyScope }, actor: AuditActor, now: number): Promise<KeyCreated | null> {
  return store.transaction(async (tx) => {
    const project = await tx.get<{ archivedAt: number | null }>(`SELECT archived_at AS "archivedAt" FROM projects WHERE id = ?`, [projectId]);
    if (!project || project.archivedAt !== null) return null;
    const created = await createKey(tx, projectId, spec.name, spec.scope, now);
    await recordAudit(tx, { ...actor, projectId, action: "key.created", target: created.prefix, detail: { name: spec.name, scope: spec.scope }, at: now });
    const { name, prefix, scope, createdAt, lastUsedAt, revokedAt, key } = created;
    return { name, prefix, scope, createdAt, lastUsedAt, revokedAt, key };
  });
}
