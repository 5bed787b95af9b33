import { accessSync, constants, existsSync, statfsSync } from "node:fs";
import path from "node:path";
import type { Store } from "@/db/client";
import { embeddedFile } from "@/db/store/engine-upkeep";
import { config } from "../config";
import {
  noteFileSystemCheck,
  noteIntegrityCheck,
  noteStorageFailure,
  noteWriteSucceeded,
  storageErrorCode,
  storageFaultKind,
  writeFaultOutstanding,
} from "../storage-fault";
import { getStore, reopenStore } from "../store";
import { jobRunner } from "./job-runner";
import { processState } from "../process-state";

const state = processState("health-checks", (): { started?: boolean } => ({}));

/**
 * What the file system says about the database without writing: the file, its WAL and its folder
 * must be writable (access(2) also reports immutable files and read-only mounts, even to root) and
 * the disk must have FAULTLINE_MIN_FREE_MB left.
 */
export function checkFileSystem(file: string, minFreeBytes: number): { kind: "read_only" | "full"; code: string } | null {
  for (const target of [file, `${file}-wal`, path.dirname(file)]) {
    if (target !== path.dirname(file) && !existsSync(target)) continue;
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      return { kind: "read_only", code: storageErrorCode(error) || "EACCES" };
    }
  }
  try {
    const fs = statfsSync(path.dirname(file));
    if (fs.bavail * fs.bsize < minFreeBytes) return { kind: "full", code: "ENOSPC" };
  } catch {
    // statfs unsupported here: the write probe still tells.
  }
  return null;
}

/**
 * One round of the cheap checks (main thread, well under a millisecond unless a write is probed).
 * They concern SQLite's file; PostgreSQL looks after its own storage, and the pool's state is in
 * the health answer.
 */
export async function runHealthCheck(store: Store): Promise<void> {
  const file = embeddedFile(store);
  if (file === null) return;
  const c = config();
  const fsFault = checkFileSystem(file.path, c.minFreeBytes);
  noteFileSystemCheck(fsFault);
  if (!writeFaultOutstanding()) return;
  // Writes failed earlier: try one now, so health (and ingest) recover without waiting for traffic.
  try {
    if (file.probeWrite() === "written") noteWriteSucceeded();
  } catch (error) {
    noteStorageFailure(error);
    // A connection opened while the file was read-only stays read-only after the file is writable
    // again (SQLITE_READONLY): with the file system now saying writable, a new connection is.
    if (fsFault === null && storageErrorCode(error).startsWith("SQLITE_READONLY")) {
      if (embeddedFile(await reopenStore())?.probeWrite() === "written") noteWriteSucceeded();
    }
  }
}

/** Runs SQLite's quick_check on the job worker and records the result. */
export async function runIntegrityCheck(): Promise<void> {
  try {
    const reply = await jobRunner().ask({ job: "quick-check" });
    if (reply.skipped === undefined) noteIntegrityCheck(reply.detail ?? "ok");
  } catch (error) {
    // The worker could not run it (it failed to open the file, or died): not a verdict on the file.
    if (storageFaultKind(error) === "corrupt") noteIntegrityCheck(storageErrorCode(error));
    else console.error("[faultline] integrity check could not run; the next one retries", error instanceof Error ? error.message : error);
  }
}

/**
 * Health checks on a schedule, SQLite only: the file-system check (and, after a failed write, a
 * write probe) every FAULTLINE_HEALTH_CHECK_EVERY_MS on the main thread; SQLite's quick_check,
 * which reads the whole file, on the job worker a few seconds after start and then every
 * FAULTLINE_QUICK_CHECK_EVERY_MS. No timer keeps the process alive.
 */
export function startHealthChecks(store: Store): void {
  if (state.started || embeddedFile(store) === null) return;
  state.started = true;
  const c = config();
  // The store of the moment: a check may replace it (reopenStore).
  const check = () => void getStore().then(runHealthCheck).catch((error: unknown) => noteStorageFailure(error));
  check();
  setInterval(check, c.healthCheckEveryMs).unref();
  setTimeout(() => void runIntegrityCheck(), Math.min(5000, c.quickCheckEveryMs)).unref();
  setInterval(() => void runIntegrityCheck(), c.quickCheckEveryMs).unref();
}
