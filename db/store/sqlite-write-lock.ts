import type Database from "better-sqlite3";

const isBusy = (error: unknown) => {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
};

/** Connection settings one transaction runs with: applied just before its BEGIN, restored after it ends (or when BEGIN fails). */
export interface TransactionSettings {
  apply(): void;
  restore(): void;
}

/**
 * `BEGIN IMMEDIATE` that waits for another connection's write lock (the job worker's fold, another
 * process) without blocking the thread: SQLite's own busy handler sleeps inside the call, which on
 * the server's main thread froze every request, health included, for as long as the other
 * transaction ran. Each try fails at once (busy_timeout 0, the connection's own restored after) and
 * the wait between tries doubles from 1 ms to 50 ms; after `waitMs` the SQLITE_BUSY is thrown, as
 * SQLite's busy timeout would.
 */
export async function beginImmediate(sqlite: Database.Database, waitMs: number, settings?: TransactionSettings): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let pause = 1; ; pause = Math.min(50, pause * 2)) {
    sqlite.pragma("busy_timeout = 0");
    // Set only across the try, so statements run during the wait below keep the connection's own.
    settings?.apply();
    try {
      sqlite.exec("BEGIN IMMEDIATE");
      return;
    } catch (error) {
      settings?.restore();
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    } finally {
      sqlite.pragma(`busy_timeout = ${waitMs | 0}`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(pause, deadline - Date.now()))));
  }
}
