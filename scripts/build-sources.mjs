// What the dashboard's build is made of, for `npm start`'s "is the last build stale?" check.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const SOURCES = ["app", "components", "lib", "db", "server", "instrumentation.ts", "instrumentation-client.ts", "next.config.js", "package.json", "tsconfig.json", "proxy.ts"];
// Not dashboard sources: the runtime package's own folder, where `npm run pack:runtime` builds and
// removes `dist/` (rebuilding the whole dashboard for it would take minutes and change nothing).
const NOT_SOURCES = ["lib/runtime/npm"];

/** The newest modification time (ms) among the dashboard's sources under `root`; 0 when there are none. */
export function newestSourceMtime(root) {
  const skipped = new Set(NOT_SOURCES.map((p) => path.join(root, p)));
  const newest = (entry) => {
    if (skipped.has(entry) || !existsSync(entry)) return 0;
    const stat = statSync(entry);
    if (!stat.isDirectory()) return stat.mtimeMs;
    let n = stat.mtimeMs;
    for (const child of readdirSync(entry)) n = Math.max(n, newest(path.join(entry, child)));
    return n;
  };
  return Math.max(0, ...SOURCES.map((s) => newest(path.join(root, s))));
}
