import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

// The API suite once more against a server on PostgreSQL, when `.ci/run` (or a developer) provides a
// cluster. Left out: files about SQLite's own file (faults, locks, start-up on a file) and files that
// never reach the database.
const SQLITE_ONLY_OR_NO_DB = ["test/api/storage-faults.test.ts", "test/api/startup-refusals.test.ts", "test/api/runtime-package.test.ts", "test/api/headers.test.ts"];
const apiProject = (name: string, exclude: string[] = []) => ({
  // Against a real `next start` server on a temporary database (needs `next build` first): one
  // server per engine for the run, shared with e2e, and a project per test file.
  resolve: { alias },
  test: {
    name,
    include: ["test/api/**/*.test.ts"],
    exclude,
    environment: "node",
    globalSetup: ["test/global-setup-server.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Conditions are awaited, not timed: expect.poll's 1 s default is too short for a busy 2-core CI box.
    expect: { poll: { timeout: 15_000 } },
  },
});

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["test/unit/**/*.test.ts", "test/unit/**/*.test.tsx"], environment: "node" },
      },
      apiProject("api"),
      ...(process.env.FAULTLINE_TEST_PG_URL ? [apiProject("api-pg", SQLITE_ONLY_OR_NO_DB)] : []),
      {
        // Real Chromium (Debian's /usr/bin/chromium), one per run with a context per test, against
        // the same shared server.
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup-server.ts", "test/global-setup-browser.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
    maxWorkers: 2,
  },
});
