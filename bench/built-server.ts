// The built app (`next start`) on a free loopback port over a given database, for the benchmarks
// that measure through HTTP (they need a prior `npm run build`).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const a = srv.address();
      srv.close(() => (typeof a === "object" && a ? resolve(a.port) : reject(new Error("no port"))));
    });
  });
}

export interface BuiltServer {
  url: string;
  /** What the server printed so far (for error messages). */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts `next start` on `dbPath` and resolves once /api/health answers 200. `dir` is the checkout
 * whose build it serves (this one by default; another worktree for an A/B of two builds).
 */
export async function startBuiltServer(dbPath: string, env: Record<string, string> = {}, dir = process.cwd()): Promise<BuiltServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dir, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", FAULTLINE_DB_PATH: dbPath, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`next start exited:\n${log}`);
    if (i > 600) {
      await stop();
      throw new Error(`server not healthy after 60 s:\n${log}`);
    }
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, log: () => log, stop };
}
