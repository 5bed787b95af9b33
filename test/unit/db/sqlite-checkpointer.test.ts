import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "@/db/store/sqlite-store";
import type { CheckpointerOptions } from "@/db/store/sqlite-checkpointer";
import type { SqliteStore } from "@/db/store/types";

const dirs: string[] = [];
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(options: CheckpointerOptions, busyTimeoutMs?: number) {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-checkpoint-"));
  dirs.push(dir);
  const file = path.join(dir, "faultline.db");
  const store = openSqliteStore(file, { checkpointInBackground: options, ...(busyTimeoutMs === undefined ? {} : { busyTimeoutMs }) });
  stores.push(store);
  store.sqlite.exec("CREATE TABLE payload (n INTEGER PRIMARY KEY, body BLOB NOT NULL)");
  return { store, file };
}

const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);

/** `count` rows of 4 KiB each (about a page each), one transaction per `perTransaction`. */
async function writePages(store: SqliteStore, from: number, count: number, perTransaction = 100): Promise<void> {
  const insert = store.sqlite.prepare("INSERT INTO payload (n, body) VALUES (?, randomblob(4000))");
  for (let n = from; n < from + count; n += perTransaction) {
    await store.transactionSync(() => {
      for (let k = n; k < Math.min(n + perTransaction, from + count); k++) insert.run(k);
    });
  }
}

/** Waits for a condition of the files (the worker runs on its own clock), failing after `ms`. */
async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// The worker runs on its own clock: each test waits for what it did, up to `until`'s deadline.
describe("WAL checkpoints on a worker thread", { timeout: 30_000 }, () => {
  it("copies committed pages into the database file while the writer's own checkpoint stays far off", async () => {
    const { store, file } = open({ intervalMs: 10, pages: 100, capPages: 4096 });
    // The writer would checkpoint only past twice the cap: 8,192 pages, 32 MiB.
    expect(store.sqlite.pragma("wal_autocheckpoint", { simple: true })).toBe(8192);
    await until(() => size(file) > 0);
    const before = size(file);
    await writePages(store, 0, 1000);
    // About 1,000 pages (4 MB) more in the database file: only the worker can have put them there.
    await until(() => size(file) >= before + 1000 * 4000);
    expect((store.sqlite.prepare("SELECT count(*) AS n FROM payload").get() as { n: number }).n).toBe(1000);
  });

  it("empties the WAL once it passes the cap, so it never grows without bound", async () => {
    const { store, file } = open({ intervalMs: 10, pages: 1, capPages: 64 });
    await writePages(store, 0, 600, 50);
    // The last transaction alone passes the cap, whatever the worker copied before it.
    await writePages(store, 600, 100, 100);
    // A PASSIVE checkpoint leaves the file's length as it was; only the TRUNCATE checkpoint empties it.
    await until(() => size(`${file}-wal`) === 0);
    expect(size(`${file}-wal`)).toBe(0);
    // The writer goes on afterwards, and what it wrote before and after is all there.
    await writePages(store, 700, 100);
    const other = new Database(file, { readonly: true });
    expect((other.prepare("SELECT count(*) AS n FROM payload").get() as { n: number }).n).toBe(800);
    other.close();
  });

  it("lets the writer go on while a reader keeps an older snapshot past the cap, and empties the WAL once it is gone", async () => {
    const { store, file } = open({ intervalMs: 5, pages: 1, capPages: 32 }, 1000);
    await writePages(store, 0, 10);
    const reader = new Database(file);
    reader.exec("BEGIN");
    expect((reader.prepare("SELECT count(*) AS n FROM payload").get() as { n: number }).n).toBe(10);
    // No checkpoint can empty the WAL while the reader keeps its snapshot: the writer goes on, and
    // the worker tries again once the reader is gone.
    await writePages(store, 10, 400, 20);
    expect(size(`${file}-wal`)).toBeGreaterThan(32 * 4096);
    reader.exec("COMMIT");
    reader.close();
    await until(() => size(`${file}-wal`) === 0);
    expect((store.sqlite.prepare("SELECT count(*) AS n FROM payload").get() as { n: number }).n).toBe(410);
  });

  it("closes the worker's connection with the store's: no connection is left holding the WAL", async () => {
    const { store, file } = open({ intervalMs: 10 });
    await writePages(store, 0, 50);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await store.close();
    // The last connection to close checkpoints and deletes the WAL: a worker left open would keep it.
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = new Database(file, { readonly: true });
    expect((reopened.prepare("SELECT count(*) AS n FROM payload").get() as { n: number }).n).toBe(50);
    reopened.close();
  });
});

describe("a script that closes its store", () => {
  it("goes on after close() instead of ending while the worker stops", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "faultline-checkpoint-"));
    dirs.push(dir);
    // A script of its own: under vitest something else always keeps the loop alive.
    const script = [
      `import { openSqliteStore } from ${JSON.stringify(path.resolve("db/store/sqlite-store.ts"))};`,
      `const store = openSqliteStore(${JSON.stringify(path.join(dir, "f.db"))}, { checkpointInBackground: true });`,
      'store.sqlite.exec("CREATE TABLE t (n INTEGER PRIMARY KEY, body BLOB)");',
      'const insert = store.sqlite.prepare("INSERT INTO t (body) VALUES (zeroblob(4096))");',
      "for (let i = 0; i < 3000; i++) insert.run();",
      "await store.close();",
      'console.log("after close");',
    ].join("\n");
    const file = path.join(dir, "script.mts");
    writeFileSync(file, script);
    const run = spawnSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("after close\n");
  });
});
