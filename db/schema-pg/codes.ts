import { text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

/** PostgreSQL twin of db/schema/codes.ts (`retryable` is 1, 0 or -1 here: a plain integer key). */
export const codes = rollupTable(
  "codes",
  {
    projectId: text("project_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    toolVersion: text("tool_version").notNull(),
    errorClass: text("error_class").notNull(),
    retryable: int("retryable").notNull(),
    firstSeen: int("first_seen").notNull(),
    lastSeen: int("last_seen").notNull(),
    spans: int("spans").notNull(),
    errors: int("errors").notNull(),
  },
  ["projectId", "code", "tool", "release", "toolVersion", "errorClass", "retryable"],
);
