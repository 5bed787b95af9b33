import type { AuditAction } from "@/lib/contracts/audit";
import type { Executor } from "../client";

/** One event for the audit log; `projectId` null is an instance-level event (sign-in, setup). */
export interface AuditRecord {
  projectId: string | null;
  actorUserId: string | null;
  /** A readable actor: the user's email, `admin secret`, `cli` or `anonymous`. */
  actorLabel: string;
  action: AuditAction;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  address?: string | null;
  at?: number;
}

/** Appends one audit entry; run it in the same transaction as the change it records. */
export async function recordAudit(db: Executor, entry: AuditRecord): Promise<void> {
  await db.run(
    "INSERT INTO audit_log (at, project_id, actor_user_id, actor_label, action, target, detail, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    [
      entry.at ?? Date.now(),
      entry.projectId,
      entry.actorUserId,
      entry.actorLabel,
      entry.action,
      entry.target ?? null,
      entry.detail ? JSON.stringify(entry.detail) : null,
      entry.address ?? null,
    ],
  );
}
