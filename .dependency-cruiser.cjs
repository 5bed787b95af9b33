/** Layering rules from DESIGN.md, checked by `npm run lint`. */
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
      name: "ui-never-imports-db",
      comment: "components, client data layer and chart preparation never touch the database or server plumbing",
      severity: "error",
      from: { path: "^(components|lib/query|lib/charts|app/providers)" },
      to: { path: "^(db|lib/server)/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "db-does-not-import-the-app",
      severity: "error",
      from: { path: "^db/" },
      to: { path: "^(app|components|lib/query|lib/charts|lib/server|lib/runtime)/" },
    },
    {
      name: "sql-only-in-db",
      comment: "SQLite drivers and Drizzle are used only under db/ (and drizzle.config.ts)",
      severity: "error",
      from: { pathNot: ["^db/", "^drizzle\\.config\\.ts$", "^test/", "^bench/"] },
      to: { path: ["^node_modules/(better-sqlite3|drizzle-orm)/"] },
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
