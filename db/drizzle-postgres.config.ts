import { defineConfig } from "drizzle-kit";

/** drizzle-kit for PostgreSQL: it reads the tables derived from db/schema (`<table>Pg`); drizzle.config.ts at the root is the SQLite one. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations/postgres",
  dbCredentials: { url: process.env.FAULTLINE_DATABASE_URL ?? "postgres://localhost/faultline" },
  strict: true,
  verbose: true,
});
