import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { openStore, type Dialect, type Store } from "@/db/client";
import { createKey, ensureDefaultProject } from "@/db/keys";
import { createTestDatabase } from "./stores";

export interface TestServer {
  url: string;
  key: string;
  dialect: Dialect;
  /** The server's process id (benchmarks read its CPU time); a shared server's handle has none. */
  pid?: number;
  /** The SQLite file, or the PostgreSQL URL, the server stores into. */
  dbPath: string;
  /** A second connection to the server's database, for seeding and assertions. */
  store: Store;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  /** Ends the process at once (SIGKILL), as a crashed node would; `stop()` still cleans up. */
  kill(): void;
  stop(): Promise<void>;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts the built app (`next start`) on a free port with a fresh temporary database — a SQLite file,
 * or a new PostgreSQL database when `dialect` says so — that already has the default project and
 * one ingest key. Needs a prior `next build` (npm test does it).
 */
export async function startServer(
  options: {
    seed?: (store: Store) => Promise<void> | void;
    env?: Record<string, string>;
    dialect?: Dialect;
    /** Another node on this existing PostgreSQL database (already set up by the first node's start). */
    sharedDatabaseUrl?: string;
    /** The folder (created here if missing, removed by `stop()`) for the SQLite file: a small file system, for disk-full tests. */
    sqliteDir?: string;
    /** What the start waits for: health `200` (default), or any answer (a server started on a faulty database). */
    ready?: "healthy" | "answering";
  } = {},
): Promise<TestServer> {
  const dialect = options.sharedDatabaseUrl ? "postgres" : (options.dialect ?? "sqlite");
  const dir = options.sqliteDir ? (mkdirSync(options.sqliteDir, { recursive: true }), options.sqliteDir) : mkdtempSync(path.join(tmpdir(), "faultline-test-"));
  const pg = dialect === "postgres" && !options.sharedDatabaseUrl ? await createTestDatabase() : undefined;
  const dbPath = options.sharedDatabaseUrl ?? pg?.url ?? path.join(dir, "faultline.db");
  const store = await openStore(dbPath, { poolMax: 4 });
  await ensureDefaultProject(store);
  const { key } = await createKey(store, "default", "test key");
  await options.seed?.(store);
  const dbEnv = dialect === "postgres" ? { FAULTLINE_DATABASE_URL: dbPath } : { FAULTLINE_DB_PATH: dbPath };
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(process.cwd(), "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)],
    {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...dbEnv, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok || options.ready === "answering") break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    key,
    dialect,
    pid: child.pid ?? 0,
    dbPath,
    store,
    output: () => output,
    kill: () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await store.close();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
