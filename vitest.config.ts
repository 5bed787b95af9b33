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
        // Against a real `next start` server on a temporary database (needs `next build` first).
        resolve: { alias },
        test: {
          name: "api",
          include: ["test/api/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Real Chromium (Debian's /usr/bin/chromium) against a real server.
        resolve: { alias },
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
    ],
    maxWorkers: 2,
  },
});
