import type { AuditActor } from "../audit/audit-actor";
import { auditedChange, noChange, type Audited } from "../audit/audited-change";
import type { Store, Tx } from "../client";
import { findKey, revokeKey } from "../keys";

/** What a revocation did: `missing` also covers a prefix of another project (never revealed). */
export type RevokeOutcome = { result: "revoked" } | { result: "missing" } | { result: "already_revoked"; revokedAt: number };

/** Revokes a project's key by its prefix, audited. */
export async function revokeKeyChange(tx: Tx, projectId: string, prefix: string, now: number): Promise<Audited<RevokeOutcome>> {
  const key = await findKey(tx, prefix);
  if (!key || key.projectId !== projectId) return { result: { result: "missing" }, audit: noChange("no such key in this project") };
  const already = (revokedAt: number): Audited<RevokeOutcome> => ({ result: { result: "already_revoked", revokedAt }, audit: noChange("the key was revoked already") });
  if (key.revokedAt !== null) return already(key.revokedAt);
  // A concurrent revocation may land between the read and the update: the update decides.
  if (!(await revokeKey(tx, prefix, now))) return already((await findKey(tx, prefix))?.revokedAt ?? now);
  return { result: { result: "revoked" }, audit: { projectId, action: "key.revoked", target: prefix, detail: { name: key.name, scope: key.scope } } };
}

/** `revokeKeyChange` in its own transaction with its audit entry, for the command line. */
export async function revokeKeyAs(store: Store, projectId: string, prefix: string, actor: AuditActor, now: number): Promise<RevokeOutcome> {
  return auditedChange(store, actor, now, (tx) => revokeKeyChange(tx, projectId, prefix, now));
}
