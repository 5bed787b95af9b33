import { index, int, primaryKey, table, text } from "./columns";
import { pgTableOf } from "./pg-table";
import { sql } from "drizzle-orm";



/**
 * One row per failed or refused call: what classification read (error type, HTTP status, the span's
 * scalar attributes as JSON), what it decided (the rule and version that set the code, or the failure
 * group of a call left without one), and the emitter's own fields before a rule changed them (`prior`,
 * JSON), so that a rule change re-classifies from what the emitter sent.
 */
export const failureFacts = table(
  "failure_facts",
  {
    projectId: text("project_id").notNull(),
    spanId: text("span_id").notNull(),
    runId: text("run_id").notNull(),
    startedAt: int("started_at").notNull(),
    errorType: text("error_type"),
    httpStatus: int("http_status"),
    attrs: text("attrs"),
    groupKey: text("group_key"),
    ruleId: text("rule_id"),
    ruleVersion: int("rule_version"),
    prior: text("prior"),
    /** The rules revision this row was classified at: the re-classification job brings older rows up to date. */
    revision: int("revision").notNull(),
  },
  (t) => [
    primaryKey({ name: "failure_facts_pk", columns: [t.projectId, t.spanId] }),
    index("failure_facts_group_idx").on(t.projectId, t.groupKey, t.startedAt).where(sql`${t.groupKey} IS NOT NULL`),
    index("failure_facts_run_idx").on(t.projectId, t.runId),
    index("failure_facts_revision_idx").on(t.projectId, t.revision),
  ],
);

export const failureFactsPg = pgTableOf(failureFacts);
