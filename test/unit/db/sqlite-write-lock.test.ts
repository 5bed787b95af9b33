import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "@/db/store/sqlite-store";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A store on a fresh file, and a second connection to it (another process, the job worker). */
function twoConnections(busyTimeoutMs: number) {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-lock-"));
  dirs.push(dir);
  const file = path.join(dir, "faultline.db");
  const store = openSqliteStore(file, { busyTimeoutMs });
  const other = new Database(file);
  other.pragma("journal_mode = WAL");
  return { store, other };
}

const projectCount = (db: Database.Database) => (db.prepare("SELECT count(*) AS n FROM projects").get() as { n: number }).n;

describe("waiting for another connection's write lock", () => {
  it("keeps the thread serving while it waits, then writes once the lock is released", async () => {
    const { store, other } = twoConnections(5000);
    other.exec("BEGIN IMMEDIATE");
    const writes = [
      store.transactionSync(() => store.sqlite.prepare("INSERT INTO projects (id, name, created_at) VALUES ('p1', 'p1', 1)").run().changes),
      store.run("INSERT INTO projects (id, name, created_at) VALUES ('p2', 'p2', 2)"),
      store.transaction((tx) => tx.run("INSERT INTO projects (id, name, created_at) VALUES ('p3', 'p3', 3)")),
    ];
    // SQLite's own busy handler would sleep in the first write, on this thread, until its timeout:
    // the other connection could never commit, and this callback would not run before it failed.
    await new Promise((resolve) => setImmediate(resolve));
    other.exec("COMMIT");
    expect(await Promise.all(writes)).toEqual([1, 1, 1]);
    expect(projectCount(other)).toBe(3);
    other.close();
    await store.close();
  });

  it("gives up with SQLITE_BUSY after the busy timeout, as SQLite would, and writes nothing", async () => {
    const { store, other } = twoConnections(50);
    other.exec("BEGIN IMMEDIATE");
    await expect(store.run("INSERT INTO projects (id, name, created_at) VALUES ('p1', 'p1', 1)")).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    other.exec("COMMIT");
    expect(projectCount(other)).toBe(0);
    expect(store.sqlite.inTransaction).toBe(false);
    other.close();
    await store.close();
  });
});

describe("the ingest transaction's temporary storage", () => {
  const tempStore = (db: Database.Database) => db.pragma("temp_store", { simple: true });

  it("is in memory inside transactionSync only, also after waiting for the lock, and the default again after commit or rollback", async () => {
    const { store, other } = twoConnections(5000);
    const seen: { sync: unknown[]; async: unknown[]; waiting: unknown[] } = { sync: [], async: [], waiting: [] };
    other.exec("BEGIN IMMEDIATE");
    const sync = store.transactionSync(() => seen.sync.push(tempStore(store.sqlite)));
    // While the ingest transaction waits for the lock, the connection serves reads with its own setting.
    await new Promise((resolve) => setImmediate(resolve));
    seen.waiting.push(tempStore(store.sqlite));
    other.exec("COMMIT");
    await sync;
    await store.transaction(async () => void seen.async.push(tempStore(store.sqlite)));
    await expect(
      store.transactionSync(() => {
        seen.sync.push(tempStore(store.sqlite));
        throw new Error("batch refused");
      }),
    ).rejects.toThrow("batch refused");
    // 2 is MEMORY, 0 the build's default (a file).
    expect(seen).toEqual({ sync: [2, 2], async: [0], waiting: [0] });
    expect(tempStore(store.sqlite)).toBe(0);
    other.close();
    await store.close();
  });
});
