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

/** Records a failed database operation; storage faults (not a busy lock) make health `degraded`. */
export function noteStorageFailure(error: unknown, now: number = Date.now()): void {
  const kind = storageFaultKind(error);
  if (kind === null || kind === "busy") return;
  const code = storageErrorCode(error);
  if (kind === "corrupt") {
    storage.corrupt ??= { kind, code, since: now, detail: code };
    return;
  }
  if (storage.write?.code !== code) storage.write = { kind, code, since: now };
}

/** A write went through: whatever stopped writes before has cleared. */
export function noteWriteSucceeded(): void {
  storage.write = null;
}

/** The file-system check's finding (`null`: writable, enough space). */
export function noteFileSystemCheck(fault: Omit<Fault, "since"> | null, now: number = Date.now()): void {
  if (fault === null) storage.fs = null;
  else if (storage.fs?.code !== fault.code) storage.fs = { ...fault, since: now };
}

/** The integrity check's result: "ok", or the problems it reported. */
export function noteIntegrityCheck(result: string, now: number = Date.now()): void {
  if (result === "ok") storage.corrupt = null;
  else storage.corrupt ??= { kind: "corrupt", code: "quick_check", since: now, detail: result };
}

/** Whether a write fault is outstanding (the periodic check then probes for recovery). */
export function writeFaultOutstanding(): boolean {
  return storage.write !== null;
}

/** The storage's state for health and ingest. */
export type StorageHealth =
  | { status: "ok" }
  | { status: "degraded"; database: Exclude<StorageFaultKind, "busy">; reason: string; since: number; acceptsWrites: boolean };

/** Corruption first (ingest stops), then what the file-system check saw, then a failed write. */
export function storageHealth(file: string = storageLocation()): StorageHealth {
  const c = storage.corrupt;
  if (c) {
    const detail = c.code === "quick_check" ? `failed its integrity check (${c.detail})` : `is damaged (${c.code})`;
    return {
      status: "degraded",
      database: "corrupt",
      reason: `the database file ${file} ${detail}; ingest is paused so nothing more is written into it; restore it from a backup`,
      since: c.since,
      acceptsWrites: false,
    };
  }
  // The file-system finding names the cause (EPERM, ENOSPC); a failed write only its symptom.
  const f = storage.fs ?? storage.write;
  if (!f) return { status: "ok" };
  return { status: "degraded", database: f.kind, reason: describeStorageFault(f.kind, file, f.code), since: f.since, acceptsWrites: true };
}

/** Forgets every fault (tests of this module only). */
export function resetStorageHealth(): void {
  storage.write = null;
  storage.fs = null;
  storage.corrupt = null;
}
