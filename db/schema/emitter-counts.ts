import { int, text } from "./columns";
import { pgTableOf } from "./pg-table";
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
    spans: sum(int("spans").notNull()),
    noCallId: sum(int("no_call_id").notNull()),
    noRunId: sum(int("no_run_id").notNull()),
    noAttempt: sum(int("no_attempt").notNull()),
    noOutcome: sum(int("no_outcome").notNull()),
    /** Spans with a known outcome other than ok: the denominator for code, class and message. */
    nonOk: sum(int("non_ok").notNull()),
    noCode: sum(int("no_code").notNull()),
    noErrorClass: sum(int("no_error_class").notNull()),
    noMessage: sum(int("no_message").notNull()),
    noRelease: sum(int("no_release").notNull()),
    lastSeen: max(int("last_seen").notNull()),
    /** Of the spans not carrying a call id, run id or attempt: those whose value Faultline derived (the rest are unknown). */
    derivedCallId: sum(int("derived_call_id").notNull().default(0)),
    derivedRunId: sum(int("derived_run_id").notNull().default(0)),
    derivedAttempt: sum(int("derived_attempt").notNull().default(0)),
  },
});

export const emitterCounts = emitterRollup.tables.all;

export const emitterCountsPg = pgTableOf(emitterCounts);
