import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";

/**
 * One row per final tool error that classification applies to (every `tool_errors` row but a native
 * record's, whose code its contract requires): the rule and version that set its code, the emitter's
 * own code, class and retryable when a rule replaced them (`prior`, JSON), and the rules revision it
 * was classified at, so that the re-classification job brings it up to date like a span's facts.
 */
export const errorFacts = table(
  "error_facts",
  {
    projectId: text("project_id").notNull(),
    eventId: text("event_id").notNull(),
    runId: text("run_id").notNull(),
    occurredAt: int("occurred_at").notNull(),
    ruleId: text("rule_id"),
    ruleVersion: int("rule_version"),
    prior: text("prior"),
    revision: int("revision").notNull(),
  },
  (t) => [
    primaryKey({ name: "error_facts_pk", columns: [t.projectId, t.eventId] }),
    index("error_facts_run_idx").on(t.projectId, t.runId),
    index("error_facts_revision_idx").on(t.projectId, t.revision),
  ],
);

export const errorFactsPg = pgTableOf(errorFacts);
