import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The codes catalogue: first and last sighting of each code per tool, release, tool version, class
 * and retryability. Keying on class and retryability is what lets a code with two meanings show up.
 * `retryable` is 1, 0, or -1 for unknown.
 */
export const codes = sqliteTable(
  "codes",
  {
    projectId: text("project_id").notNull(),
    code: text("code").notNull(),
    tool: text("tool").notNull(),
    release: text("release").notNull(),
    toolVersion: text("tool_version").notNull(),
    errorClass: text("error_class").notNull(),
    retryable: integer("retryable").notNull(),
    firstSeen: integer("first_seen").notNull(),
    lastSeen: integer("last_seen").notNull(),
    spans: integer("spans").notNull(),
    errors: integer("errors").notNull(),
  },
  (t) => [
    primaryKey({
      columns: [t.projectId, t.code, t.tool, t.release, t.toolVersion, t.errorClass, t.retryable],
    }),
  ],
);
