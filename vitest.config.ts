import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["test/unit/**/*.test.ts", "test/unit/**/*.test.tsx"], environment: "node" },
      },
      {
        // Against a real `next start` server on a temporary database (needs `next build` first): one
        // server for the run, shared with e2e, and a project per test file.
        resolve: { alias },
        test: {
          name: "api",
          include: ["test/api/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/global-setup-server.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Conditions are awaited, not timed: expect.poll's 1 s default is too short for a busy 2-core CI box.
          expect: { poll: { timeout: 15_000 } },
        },
      },
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
