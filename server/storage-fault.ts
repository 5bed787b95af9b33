import { redactDatabaseUrl } from "@/lib/database-url";
import { describeStorageFault, storageErrorCode, storageFaultKind, type StorageFaultKind } from "@/db/store/storage-faults";
import { config } from "./config";
import { processState } from "./process-state";

// The storage's health as this process has seen it: pure state. What an error means is db/'s
// knowledge (db/store/storage-faults.ts), re-exported here for the HTTP plumbing and the jobs.
export { describeStorageFault, isDatabaseError, storageErrorCode, storageFaultKind, type StorageFaultKind } from "@/db/store/storage-faults";

/** Where the data lives, for messages: the SQLite file, or the PostgreSQL URL without its password. */
export function storageLocation(): string {
  const c = config();
  return c.databaseUrl ? redactDatabaseUrl(c.databaseUrl) : c.dbPath;
}

interface Fault {
  kind: Exclude<StorageFaultKind, "busy">;
  code: string;
  since: number;
}

interface StorageState {
  /** The last write that failed, until a write succeeds again. */
  write: Fault | null;
  /** What the periodic file-system check found (not writable, too little space). */
  fs: Fault | null;
  /** The last integrity check that failed (or a corrupt page met at run time), until one passes. */
  corrupt: (Fault & { detail: string }) | null;
}

const storage = processState("storage", (): StorageState => ({ write: null, fs: null, corrupt: null }));

/** The operator's line for a fault, in the server's log only: it names the file or server and the cause. */
function logFault(kind: Exclude<StorageFaultKind, "busy">, code: string, detail?: string): void {
  const extra = detail && detail !== code ? `: ${detail}` : "";
  console.error(`[faultline] storage fault: ${describeStorageFault(kind, storageLocation(), code)}${extra}`);
}

/** Records a failed database operation; storage faults (not a busy lock) make health `degraded`. */
export function noteStorageFailure(error: unknown, now: number = Date.now()): void {
  const kind = storageFaultKind(error);
  if (kind === null || kind === "busy") return;
  const code = storageErrorCode(error);
  if (kind === "corrupt") {
    if (!storage.corrupt) logFault(kind, code);
    storage.corrupt ??= { kind, code, since: now, detail: code };
    return;
  }
  if (storage.write?.code !== code) {
    logFault(kind, code);
    storage.write = { kind, code, since: now };
  }
}

/** A write went through: whatever stopped writes before has cleared. */
export function noteWriteSucceeded(): void {
  storage.write = null;
}

/** The file-system check's finding (`null`: writable, enough space). */
export function noteFileSystemCheck(fault: Omit<Fault, "since"> | null, now: number = Date.now()): void {
  if (fault === null) storage.fs = null;
  else if (storage.fs?.code !== fault.code) {
    logFault(fault.kind, fault.code);
    storage.fs = { ...fault, since: now };
  }
}

/** The integrity check's result: "ok", or the problems it reported. */
export function noteIntegrityCheck(result: string, now: number = Date.now()): void {
  if (result === "ok") storage.corrupt = null;
  else if (!storage.corrupt) {
    logFault("corrupt", "quick_check", `integrity check reported ${result}`);
    storage.corrupt = { kind: "corrupt", code: "quick_check", since: now, detail: result };
  }
}

/** Whether a write fault is outstanding (the periodic check then probes for recovery). */
export function writeFaultOutstanding(): boolean {
  return storage.write !== null;
}

/** The storage's state for health and ingest. */
export type StorageHealth =
  | { status: "ok" }
  | { status: "degraded"; database: Exclude<StorageFaultKind, "busy">; reason: string; since: number; acceptsWrites: boolean };

/**
 * What anyone may read about a fault (health is public, ingest answers every key holder): its kind
 * and what happens meanwhile, never the file's path, the server's address or the check's output,
 * which go to the server's log (see logFault).
 */
const PUBLIC_REASONS: Record<Exclude<StorageFaultKind, "busy">, string> = {
  corrupt: "the database is damaged; ingest is paused so that nothing more is written into it; the server's log says what to do",
  read_only: "the database does not take writes; the server's log says why and what to do",
  full: "the database's disk is full; the server's log says what to do",
  io_error: "the database failed with an I/O error; the server's log says what to do",
  cannot_open: "the database cannot be opened; the server's log says why and what to do",
  unreachable: "the database cannot be reached; the server's log says why and what to do",
};

/** The sentence health and ingest answer for a kind of storage fault. */
export const publicStorageReason = (kind: Exclude<StorageFaultKind, "busy">): string => PUBLIC_REASONS[kind];

/** Corruption first (ingest stops), then what the file-system check saw, then a failed write. */
export function storageHealth(): StorageHealth {
  const c = storage.corrupt;
  if (c) return { status: "degraded", database: "corrupt", reason: PUBLIC_REASONS.corrupt, since: c.since, acceptsWrites: false };
  // The file-system finding names the cause (EPERM, ENOSPC); a failed write only its symptom.
  const f = storage.fs ?? storage.write;
  if (!f) return { status: "ok" };
  return { status: "degraded", database: f.kind, reason: PUBLIC_REASONS[f.kind], since: f.since, acceptsWrites: true };
}

/** Forgets every fault (tests of this module only). */
export function resetStorageHealth(): void {
  storage.write = null;
  storage.fs = null;
  storage.corrupt = null;
}
