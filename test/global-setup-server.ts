// One `next start` per engine for the whole run: the api and e2e projects share one on SQLite, the
// `-pg` projects one on PostgreSQL. Each project runs this setup; the first call starts the server
// and the last teardown stops it. Test files keep their data apart by using a project of their own
// (test/helpers/project.ts).
import type { TestProject } from "vitest/node";
import type { Dialect } from "@/db/client";
import { startServer, type TestServer } from "./helpers/server";

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the shared server. */
    serverUrl: string;
    /** Its SQLite file or PostgreSQL URL: test files open their own connection to create their project and seed it. */
    serverDbPath: string;
    /** The engine behind it: the `-pg` projects run the same files against PostgreSQL. */
    serverDialect: Dialect;
  }
}

/**
 * The fixtures sit at fixed dates, some older than the default 30-day retention, and the server
 * sweeps 10 s after start: without this a long run would prune a later file's seed. Drift folds
 * start 50 ms after ingest pauses (not 2 s) so the drift tests wait for their fold, not for a timer.
 */
const SHARED_SERVER_ENV = {
  FAULTLINE_RETENTION_DAYS: "36500",
  FAULTLINE_ROLLUP_RETENTION_DAYS: "36500",
  FAULTLINE_DRIFT_REFRESH_MS: "50",
  // Alert tests deliver to receivers on 127.0.0.1.
  FAULTLINE_ALERT_ALLOW_PRIVATE: "1",
};

type Entry = { server: Promise<TestServer>; users: number };
const shared = globalThis as unknown as { __faultlineSharedServers?: Partial<Record<Dialect, Entry>> };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dialect: Dialect = project.name.endsWith("-pg") ? "postgres" : "sqlite";
  const servers = (shared.__faultlineSharedServers ??= {});
  const entry = (servers[dialect] ??= { server: startServer({ env: SHARED_SERVER_ENV, dialect }), users: 0 });
  entry.users++;
  const server = await entry.server;
  project.provide("serverUrl", server.url);
  project.provide("serverDbPath", server.dbPath);
  project.provide("serverDialect", dialect);
  return async () => {
    if (--entry.users > 0) return;
    delete servers[dialect];
    await server.stop();
  };
}
