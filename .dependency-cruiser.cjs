/**
 * Layering rules from DESIGN.md and docs/architecture.md, checked by `npm run lint`:
 *   lib (pure) ◀ db (storage) ◀ server (HTTP, jobs, config) ◀ app; components ◀ lib/query.
 * No back-arrows, no cycles.
 */
module.exports = {
  forbidden: [
    {
      name: "runtime-is-standalone",
      comment: "lib/runtime is publishable: it may import only lib/contracts, zod and node builtins",
      severity: "error",
      from: { path: "^lib/runtime/" },
      to: { pathNot: ["^lib/runtime/", "^lib/contracts/", "^node_modules/zod/"], dependencyTypesNot: ["core"] },
    },
    {
      name: "contracts-depend-on-zod-only",
      severity: "error",
      from: { path: "^lib/contracts/" },
      to: { pathNot: ["^lib/contracts/", "^node_modules/zod/"] },
    },
    {
      name: "lib-is-the-ground-floor",
      comment: "lib/ is pure and framework-free: it never imports the storage, server or UI layers",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^(db|server|app|components)/" },
    },
    {
      name: "db-does-not-import-upper-layers",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(app|components|server|lib/query|lib/runtime)/" },
    },
    {
      name: "server-does-not-import-the-ui",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "ui-never-imports-db-or-server",
      comment: "components and the client data layer never touch the database or server plumbing",
      severity: "error",
      from: { path: "^(components|lib/query|lib/charts|app/providers)" },
      to: { path: "^(db|server)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "sql-only-in-db",
      comment: "The database drivers (better-sqlite3, pg) and Drizzle are used only under db/ (and drizzle.config.ts): SQL and engine branches live there",
      severity: "error",
      from: { pathNot: ["^db/", "^drizzle\\.config\\.ts$", "^test/", "^bench/"] },
      to: { path: ["^node_modules/(@types/)?(better-sqlite3|drizzle-orm|pg|pg-pool|pg-protocol|pg-connection-string)/"] },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["^\\.next"] },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
  },
};
