import { integer, text } from "drizzle-orm/sqlite-core";
import { defineRollup, max, sum } from "../rollups/define-rollup";

/**
 * Per project and emitter (sending service + the convention its spans were read by), how many
 * stored tool spans did not carry each field themselves (a field Faultline derived counts as not
 * carried). Kept at ingest: the conformance page reads a few rows per project.
 */
export const emitterRollup = defineRollup({
  tables: { all: { name: "emitter_counts" } },
  keys: {
    projectId: text("project_id").notNull(),
    /** The sending service ('' when unknown). */
    service: text("service").notNull(),
    /** `faultline`, `adk`, `gen_ai`, `openinference`, `traceloop`, `vercel_ai`, `langfuse`, or a non-OTLP source. */
    convention: text("convention").notNull(),
  },
  values: {
    spans: sum(integer("spans").notNull()),
    noCallId: sum(integer("no_call_id").notNull()),
    noRunId: sum(integer("no_run_id").notNull()),
    noAttempt: sum(integer("no_attempt").notNull()),
    noOutcome: sum(integer("no_outcome").notNull()),
    /** Spans with a known outcome other than ok: the denominator for code, class and message. */
    nonOk: sum(integer("non_ok").notNull()),
    noCode: sum(integer("no_code").notNull()),
    noErrorClass: sum(integer("no_error_class").notNull()),
    noMessage: sum(integer("no_message").notNull()),
    noRelease: sum(integer("no_release").notNull()),
    lastSeen: max(integer("last_seen").notNull()),
    /** Of the spans not carrying a call id, run id or attempt: those whose value Faultline derived (the rest are unknown). */
    derivedCallId: sum(integer("derived_call_id").notNull().default(0)),
    derivedRunId: sum(integer("derived_run_id").notNull().default(0)),
    derivedAttempt: sum(integer("derived_attempt").notNull().default(0)),
  },
});

export const emitterCounts = emitterRollup.tables.all;
