import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Hourly counters of final tool errors by decision. */
export const errorRollupsHourly = sqliteTable(
  "error_rollups_hourly",
  {
    projectId: text("project_id").notNull(),
    hour: integer("hour").notNull(),
    tool: text("tool").notNull(),
    code: text("code").notNull(),
    errorClass: text("error_class").notNull(),
    decision: text("decision").notNull(),
    release: text("release").notNull(),
    service: text("service").notNull(),
    errors: integer("errors").notNull(),
    attemptsSum: integer("attempts_sum").notNull(),
    retryableCount: integer("retryable_count").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.hour, t.tool, t.code, t.errorClass, t.decision, t.release, t.service] }),
  ],
);
