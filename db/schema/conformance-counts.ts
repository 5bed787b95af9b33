import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
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
    spans: sum(int("spans").notNull()),
    noOutcome: sum(int("no_outcome").notNull()),
    /** Spans with a known outcome other than ok: the denominator for a missing code. */
    nonOk: sum(int("non_ok").notNull()),
    noCode: sum(int("no_code").notNull()),
    noAttempt: sum(int("no_attempt").notNull()),
    noRelease: sum(int("no_release").notNull()),
  },
});

export const conformanceCounts = conformance.tables.all;

export const conformanceCountsPg = pgTableOf(conformanceCounts);
