import type { AuditAction } from "@/lib/contracts/audit";
import type { Executor, Store, Tx } from "../client";
import { SYSTEM_ACTOR, type AuditActor } from "./audit-actor";
import { recordAudit } from "./record-audit";

/** What a change says about itself for the audit log; who made it, from where and when are filled in. */
export interface AuditNote {
  projectId: string | null;
  action: AuditAction;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  /** The account that acts when it is not the caller: the one a sign-in, setup or accepted invitation is about. */
  as?: Pick<AuditActor, "actorUserId" | "actorLabel">;
}

declare const NO_CHANGE: unique symbol;

/** The explicit "nothing changed, nothing to record" of a change that found nothing to do. */
export interface NoChange {
  readonly [NO_CHANGE]: true;
  readonly reason: string;
}

/** Says, with the reason, that a change changed nothing (asked for the state a row already has, signed out without a session). */
export const noChange = (reason: string): NoChange => ({ reason }) as NoChange;

/**
 * What a change answers: its result and its audit entries. `audit` is required and cannot be an
 * empty list, so a change that writes cannot leave the log out by omission; one that changed
 * nothing says so with `noChange(reason)`.
 */
export interface Audited<R> {
  result: R;
  audit: AuditNote | readonly [AuditNote, ...AuditNote[]] | NoChange;
}

/** A change: db/ functions run on the transaction it is given. */
export type Change<R> = (tx: Tx) => Promise<Audited<R>>;

const notesOf = (audit: Audited<unknown>["audit"]): readonly AuditNote[] => {
  if (Array.isArray(audit)) return audit as readonly AuditNote[];
  return "action" in audit ? [audit as AuditNote] : [];
};

/**
 * Runs a change and inserts its audit entries in one transaction: both commit, or neither does
 * (an error thrown by the change rolls the whole of it back). The one place a change's audit
 * entries are written; `actor` is who made it and from where, `at` its time.
 */
export async function auditedChange<R>(store: Store, actor: AuditActor, at: number, change: Change<R>): Promise<R> {
  return store.transaction(async (tx) => {
    const { result, audit } = await change(tx);
    for (const { as, ...note } of notesOf(audit)) await recordAudit(tx, { ...actor, ...as, ...note, at });
    return result;
  });
}

/** Audits an event that changed nothing else here, such as a sign-in at an identity provider, or one refused. */
export async function recordEvent(store: Store, actor: AuditActor, at: number, note: AuditNote): Promise<void> {
  await auditedChange(store, actor, at, async () => ({ result: undefined, audit: note }));
}

/**
 * Audits the server's own changes made inside a transaction that a job already holds (a drift
 * recompute, an alert evaluation), as {@link SYSTEM_ACTOR}: they commit or roll back with it.
 */
export async function recordSystemChanges(tx: Executor, at: number, notes: readonly AuditNote[]): Promise<void> {
  for (const { as, ...note } of notes) await recordAudit(tx, { ...SYSTEM_ACTOR, ...as, ...note, at });
}
