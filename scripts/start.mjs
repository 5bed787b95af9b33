// `npm start`: build when the sources are newer than the last build, then serve on 127.0.0.1:3000.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = process.cwd();
const host = process.env.HOST ?? "127.0.0.1";
const port = process.env.PORT ?? "3000";
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);
if (!LOOPBACK.has(host) && !process.env.FAULTLINE_ADMIN_SECRET) {
  console.error(`[faultline] refusing to bind to ${host}: set FAULTLINE_ADMIN_SECRET to expose the dashboard beyond loopback.`);
  process.exit(1);
}

function newestMtime(entry) {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const buildId = path.join(root, process.env.FAULTLINE_DIST_DIR ?? ".next", "BUILD_ID");
const sources = ["app", "components", "lib", "db", "server", "instrumentation.ts", "instrumentation-client.ts", "next.config.js", "package.json", "tsconfig.json", "proxy.ts"];
const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
if (Math.max(...sources.map((s) => newestMtime(path.join(root, s)))) > builtAt) {
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
