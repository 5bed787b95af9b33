import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Per project and input format, how many stored tool spans lack each field; kept at ingest so the
 * conformance view never scans raw spans.
 */
export const conformanceCounts = sqliteTable(
  "conformance_counts",
  {
    projectId: text("project_id").notNull(),
    source: text("source").notNull(),
    spans: integer("spans").notNull(),
    noOutcome: integer("no_outcome").notNull(),
    /** Spans with a known outcome other than ok: the denominator for a missing code. */
    nonOk: integer("non_ok").notNull(),
    noCode: integer("no_code").notNull(),
    noAttempt: integer("no_attempt").notNull(),
    noRelease: integer("no_release").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.source] })],
);
