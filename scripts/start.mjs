// `npm start`: build when the sources are newer than the last build, then serve on 127.0.0.1:3000.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { newestSourceMtime } from "./build-sources.mjs";

const root = process.cwd();
const host = process.env.HOST ?? "127.0.0.1";
const port = process.env.PORT ?? "3000";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
if (!LOOPBACK.has(host) && !process.env.FAULTLINE_ADMIN_SECRET) {
  console.error(`[faultline] refusing to bind to ${host}: set FAULTLINE_ADMIN_SECRET to expose the dashboard beyond loopback.`);
  process.exit(1);
}

const buildId = path.join(root, process.env.FAULTLINE_DIST_DIR ?? ".next", "BUILD_ID");
const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
if (newestSourceMtime(root) > builtAt) {
  console.log("[faultline] building (sources changed since the last build)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], { stdio: "inherit", env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// Run next's own entry so that this process's child *is* the server and signals reach it.
const server = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "start", "-H", host, "-p", port], {
  stdio: "inherit",
  env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
