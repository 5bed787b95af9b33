import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, inject } from "vitest";
import { openStore, type Store } from "@/db/client";
import { createKey, createProject } from "@/db/keys";
import type { TestServer } from "./server";

/** A test file's own project on the run's shared server (test/global-setup-server.ts). */
export interface ProjectServer extends Omit<TestServer, "output" | "kill"> {
  /** The project id; every read of this file names it, so other files' data never shows. */
  project: string;
  /** `url + path` with `project=<this project>` added, unless the path already names a project. */
  at(path: string): string;
  /** Waits until the background drift fold has caught up with everything written to the project. */
  driftFolded(): Promise<void>;
}

/** A project id readable in logs (the test file's folder and name) and unique within the run. */
function projectIdForThisFile(): string {
  const file = expect.getState().testPath ?? "test";
  const base = path.basename(file).replace(/\.test\.tsx?$/, "").replace(/[^A-Za-z0-9-]/g, "-");
  return `${path.basename(path.dirname(file))}-${base}-${randomBytes(3).toString("hex")}`;
}

/**
 * Creates a project and its ingest key ("test key") in the shared server's database, seeds it, and
 * answers the same handle as `startServer`; `stop()` only closes this file's database connection.
 */
export async function openProject(options: { seed?: (store: Store, project: string) => Promise<void> | void } = {}): Promise<ProjectServer> {
  const url = inject("serverUrl");
  const dbPath = inject("serverDbPath");
  const dialect = inject("serverDialect");
  const store = await openStore(dbPath, { poolMax: 4 });
  const project = projectIdForThisFile();
  await createProject(store, project, `Project of ${project}`);
  const { key } = await createKey(store, project, "test key");
  await options.seed?.(store, project);
  const at = (p: string) => (/[?&]project=/.test(p) ? url + p : `${url}${p}${p.includes("?") ? "&" : "?"}project=${encodeURIComponent(project)}`);
  return {
    url,
    key,
    dialect,
    dbPath,
    store,
    project,
    at,
    async driftFolded() {
      // A drift read starts the fold of rows written straight into the database; reads never wait for it.
      for (;;) {
        const summary = (await (await fetch(at("/api/v1/drift/summary"))).json()) as { upToDate: boolean };
        if (summary.upToDate) return;
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      await store.close();
    },
  };
}
