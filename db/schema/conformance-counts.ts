import { integer, text } from "drizzle-orm/sqlite-core";
import { defineRollup, sum } from "../rollups/define-rollup";

/**
 * Per project and input format, how many stored tool spans lack each field; kept at ingest so the
 * conformance view never scans raw spans.
 */
export const conformance = defineRollup({
  tables: { all: { name: "conformance_counts" } },
  keys: {
    projectId: text("project_id").notNull(),
    source: text("source").notNull(),
  },
  values: {
    spans: sum(integer("spans").notNull()),
    noOutcome: sum(integer("no_outcome").notNull()),
    /** Spans with a known outcome other than ok: the denominator for a missing code. */
    nonOk: sum(integer("non_ok").notNull()),
    noCode: sum(integer("no_code").notNull()),
    noAttempt: sum(integer("no_attempt").notNull()),
    noRelease: sum(integer("no_release").notNull()),
  },
});

export const conformanceCounts = conformance.tables.all;
