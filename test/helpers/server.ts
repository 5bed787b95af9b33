import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { openStore, type Store } from "@/db/client";
import { createKey, ensureDefaultProject } from "@/db/keys";

export interface TestServer {
  url: string;
  key: string;
  dbPath: string;
  /** A second connection to the server's database, for seeding and assertions. */
  store: Store;
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
 * Starts the built app (`next start`) on a free port with a fresh temporary database that already
 * has the default project and one ingest key. Needs a prior `next build` (npm test does it).
 */
export async function startServer(options: { seed?: (store: Store) => void; env?: Record<string, string> } = {}): Promise<TestServer> {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-test-"));
  const dbPath = path.join(dir, "faultline.db");
  const store = openStore(dbPath);
  ensureDefaultProject(store);
  const { key } = createKey(store, "default", "test key");
  options.seed?.(store);
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(process.cwd(), "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)],
    {
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", FAULTLINE_DB_PATH: dbPath, ...options.env },
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
      if (res.ok) break;
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
    dbPath,
    store,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      store.sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
