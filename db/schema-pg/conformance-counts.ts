import { text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

/** PostgreSQL twin of db/schema/conformance-counts.ts. */
export const conformanceCounts = rollupTable(
  "conformance_counts",
  {
    projectId: text("project_id").notNull(),
    source: text("source").notNull(),
    spans: int("spans").notNull(),
    noOutcome: int("no_outcome").notNull(),
    nonOk: int("non_ok").notNull(),
    noCode: int("no_code").notNull(),
    noAttempt: int("no_attempt").notNull(),
    noRelease: int("no_release").notNull(),
  },
  ["projectId", "source"],
);
