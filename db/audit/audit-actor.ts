import type { AuditRecord } from "./record-audit";

/** Who makes a change and from where, as the audit entry of the change records it. */
export type AuditActor = Required<Pick<AuditRecord, "actorUserId" | "actorLabel" | "address">>;

/** The command line's actor: no user, no address. */
export const CLI_ACTOR: AuditActor = { actorUserId: null, actorLabel: "cli", address: null };

/** The server's own changes (an issue a drift finding or alert rule opened): no user, no address. */
export const SYSTEM_ACTOR: AuditActor = { actorUserId: null, actorLabel: "system", address: null };
