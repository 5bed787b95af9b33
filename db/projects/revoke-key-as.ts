import type { AuditActor } from "../audit/audit-actor";
import { recordAudit } from "../audit/record-audit";
import type { Store } from "../client";
import { findKey, revokeKey } from "../keys";

/** What a revocation did: `missing` also covers a prefix of another project (never revealed). */
export type RevokeOutcome = { result: "revoked" } | { result: "missing" } | { result: "already_revoked"; revokedAt: number };

/** Revokes a project's key by its prefix with its audit entry, in one transaction. */
export async function revokeKeyAs(store: Store, projectId: string, prefix: string, actor: AuditActor, now: number): Promise<RevokeOutcome> {
  return store.transaction(async (tx) => {
    const key = await findKey(tx, prefix);
    if (!key || key.projectId !== projectId) return { result: "missing" };
    if (key.revokedAt !== null) return { result: "already_revoked", revokedAt: key.revokedAt };
    // A concurrent revocation may land between the read and the update: the update decides.
    if (!(await revokeKey(tx, prefix, now))) return { result: "already_revoked", revokedAt: (await findKey(tx, prefix))?.revokedAt ?? now };
    await recordAudit(tx, { ...actor, projectId, action: "key.revoked", target: prefix, detail: { name: key.name, scope: key.scope }, at: now });
    return { result: "revoked" };
  });
}
