import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./db/schema/index.ts",
  out: "./db/migrations/sqlite",
  dbCredentials: { url: process.env.FAULTLINE_DB_PATH ?? "./data/faultline.db" },
  strict: true,
  verbose: true,
});
