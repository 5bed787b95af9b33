import { text } from "drizzle-orm/pg-core";
import { int } from "./int";
import { rollupTable } from "./rollup-table";

/** PostgreSQL twin of db/schema/emitter-counts.ts. */
export const emitterCounts = rollupTable(
  "emitter_counts",
  {
    projectId: text("project_id").notNull(),
    service: text("service").notNull(),
    convention: text("convention").notNull(),
    spans: int("spans").notNull(),
    noCallId: int("no_call_id").notNull(),
    noRunId: int("no_run_id").notNull(),
    noAttempt: int("no_attempt").notNull(),
    noOutcome: int("no_outcome").notNull(),
    nonOk: int("non_ok").notNull(),
    noCode: int("no_code").notNull(),
    noErrorClass: int("no_error_class").notNull(),
    noMessage: int("no_message").notNull(),
    noRelease: int("no_release").notNull(),
    lastSeen: int("last_seen").notNull(),
    derivedCallId: int("derived_call_id").notNull().default(0),
    derivedRunId: int("derived_run_id").notNull().default(0),
    derivedAttempt: int("derived_attempt").notNull().default(0),
  },
  ["projectId", "service", "convention"],
);
