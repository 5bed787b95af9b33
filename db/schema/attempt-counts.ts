import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Spans per attempt number, per tool and period. Calls that needed exactly k attempts are
 * spans(k) − spans(k+1), which gives the attempts-per-call histogram exactly, without raw scans.
 */
function attemptCountTable<N extends string>(name: N) {
  return sqliteTable(
    name,
    {
      projectId: text("project_id").notNull(),
      hour: integer("hour").notNull(),
      tool: text("tool").notNull(),
      release: text("release").notNull(),
      service: text("service").notNull(),
      attempt: integer("attempt").notNull(),
      spans: integer("spans").notNull(),
    },
    (t) => [primaryKey({ columns: [t.projectId, t.hour, t.tool, t.release, t.service, t.attempt] })],
  );
}

export const attemptCountsHourly = attemptCountTable("attempt_counts_hourly");
export const attemptCounts6h = attemptCountTable("attempt_counts_6h");
